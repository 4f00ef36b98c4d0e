// Watch streams: newline-delimited JSON events over a chunked response, with
// bookmarks, timeoutSeconds, sendInitialEvents and the 410 Expired ERROR event the
// real server sends inside the stream when the resourceVersion is too old.

import type { KubeObject, WatchEvent } from './store.ts';
import { StoreError } from './store.ts';
import { toExternal } from './convert.ts';
import { toStatus } from './status.ts';
import { toTable, wantsTable, type IncludeObject } from './tables.ts';
import type { Ctx } from './context.ts';
import { apiVersionOf } from './resources.ts';
import { translateFieldSelector } from './handlers/crud.ts';
import { boolParam, int64Param, optionalBoolParam } from './params.ts';
import { servedFromEtcd, tooOldMessage, watchTimeoutMs } from './timing.ts';

export function serveWatch(ctx: Ctx): void {
  const { req, res, state, query, route } = ctx;
  const rt = route.rt;
  const table = wantsTable(req.headers.accept);
  const include = (query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
  // Events are not in the watch cache (kube-apiserver serves them from etcd), so their watches
  // get no bookmarks, whatever the client allows (./timing.ts).
  const bookmarks = boolParam(query, 'allowWatchBookmarks') && !servedFromEtcd(ctx.bucket);
  const sendInitial = optionalBoolParam(query, 'sendInitialEvents');
  const timeout = int64Param(query, 'timeoutSeconds') ?? 0;
  let rv = query.get('resourceVersion') ?? undefined;
  // sendInitialEvents=true: synthetic ADDED for current state, then a bookmark marking the end.
  if (sendInitial === true) rv = undefined;
  else if (sendInitial === false && (!rv || rv === '0')) rv = state.store.currentRV();

  let fieldSelector = query.get('fieldSelector') ?? undefined;
  if (route.name) fieldSelector = [fieldSelector, `metadata.name=${route.name}`].filter(Boolean).join(',');
  fieldSelector = translateFieldSelector(rt, fieldSelector);

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();

  let ended = false;
  let stopWatch: (() => void) | undefined;
  const timers: NodeJS.Timeout[] = [];
  const end = () => {
    if (ended) return;
    ended = true;
    stopWatch?.();
    for (const t of timers) {
      clearTimeout(t);
      clearInterval(t);
    }
    state.closers.delete(end);
    res.end();
  };
  state.closers.add(end);
  req.on('close', end);
  res.on('close', end);

  const write = (type: WatchEvent['type'], object: unknown) => {
    if (!ended) res.write(JSON.stringify({ type, object }) + '\n');
  };
  const toWire = (o: KubeObject): unknown => {
    const ext = toExternal(rt, o);
    if (!table) return ext;
    return toTable(rt, ctx.bucket, [ext], include, state.k8sMinor, { resourceVersion: ext.metadata.resourceVersion });
  };
  const bookmark = (annotations?: Record<string, string>) => {
    const meta: Record<string, unknown> = { resourceVersion: state.store.currentRV() };
    if (annotations) meta.annotations = annotations;
    write('BOOKMARK', { kind: table ? 'Table' : rt.kind, apiVersion: table ? 'meta.k8s.io/v1' : apiVersionOf(rt), metadata: meta });
  };

  try {
    if (rv && rv !== '0' && state.faults.watchExpired()) throw new StoreError(410, 'Expired', tooOldMessage(ctx.bucket, rv, state.store.currentRV()));
    const w = state.store.watch(
      ctx.bucket,
      {
        namespace: route.namespace,
        labelSelector: query.get('labelSelector') ?? undefined,
        fieldSelector,
        resourceVersion: rv,
      },
      ev => write(ev.type, toWire(ev.object)),
    );
    stopWatch = () => w.stop();
  } catch (e) {
    // Too old (410) or a bad selector: one ERROR event with the Status, then the stream ends.
    if (e instanceof StoreError && e.code === 410) {
      const expired = new StoreError(410, 'Expired', tooOldMessage(ctx.bucket, rv ?? '', state.store.oldestRV()));
      write('ERROR', { ...toStatus(expired), reason: 'Expired' });
    } else write('ERROR', toStatus(e));
    end();
    return;
  }
  if (sendInitial === true && bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
  if (bookmarks) timers.push(setInterval(() => bookmark(), state.bookmarkIntervalMs));
  // Without timeoutSeconds the server picks minRequestTimeout × [1, 2): 30–60 min by default.
  timers.push(setTimeout(end, timeout > 0 ? timeout * 1000 : watchTimeoutMs(state)));
  const drop = state.faults.watchDropAfterMs();
  if (drop !== undefined) timers.push(setTimeout(end, drop));
}
