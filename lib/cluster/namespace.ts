// The run's namespace: created with the run label, deleted by watching it go (the watch is
// opened before the delete, as hydrophone's cleanup does).

import type { V1Namespace } from '@kubernetes/client-node';
import { HEARTBEAT_ANNOTATION } from '../labels.ts';
import { apiErrorMessage, apiStatusCode } from './apiError.ts';
import type { KubeClients } from './types.ts';
import { watchUntil } from './watch.ts';
import { POD_SECURITY_PRIVILEGED } from './podSecurity.ts';
import { listAll } from './list.ts';

/**
 * Creates the run namespace labelled privileged for Pod Security (enforce, audit, warn), so
 * HostProcess, hostPath and hostNetwork fixtures are admitted. A cluster whose policy refuses
 * those labels gets the namespace without them (told through `onLabelsRefused`): its
 * fixtures that need privilege are then refused one by one, and their features are n/a.
 */
export async function createRunNamespace(
  kube: KubeClients,
  name: string,
  labels: Record<string, string>,
  annotations: Record<string, string> = {},
  onLabelsRefused?: (message: string) => void,
): Promise<void> {
  const create = (l: Record<string, string>) => kube.core.createNamespace({ body: { metadata: { name, labels: l, annotations } } });
  try {
    await create({ ...labels, ...POD_SECURITY_PRIVILEGED });
  } catch (e) {
    // Retried after a reset, the create may have landed the first time: ours if it has our label.
    const runLabel = Object.entries(labels)[0];
    if (
      apiStatusCode(e) === 409 &&
      runLabel &&
      (await kube.core.readNamespace({ name }).then(
        ns => ns.metadata?.labels?.[runLabel[0]] === runLabel[1],
        () => false,
      ))
    )
      return;
    const code = apiStatusCode(e);
    if (code === 409) throw new Error(`namespace ${name} already exists; run "wincheck cleanup" first`, { cause: e });
    if ((code === 403 || code === 400 || code === 422) && apiErrorMessage(e).includes('pod-security.kubernetes.io')) {
      onLabelsRefused?.(
        `The cluster refused the Pod Security labels on namespace ${name} (${apiErrorMessage(e)}); created it without them: fixtures that need privilege will be refused and their features reported n/a.`,
      );
      try {
        await create(labels);
        return;
      } catch (e2) {
        throw new Error(`failed to create namespace ${name}: ${apiErrorMessage(e2)}`, { cause: e2 });
      }
    }
    throw new Error(`failed to create namespace ${name}: ${apiErrorMessage(e)}`, { cause: e });
  }
}

/** Drops the heartbeat (a kept namespace is not a live run: `wincheck cleanup` may remove it). */
export async function endLease(kube: KubeClients, name: string): Promise<void> {
  await kube.core.patchNamespace({ name, body: [{ op: 'remove', path: `/metadata/annotations/${HEARTBEAT_ANNOTATION.replace('/', '~1')}` }] });
}

export async function deleteNamespaceAndWait(kube: KubeClients, name: string, timeoutMs: number): Promise<void> {
  const gone = watchUntil<V1Namespace, true>({
    kube,
    path: '/api/v1/namespaces',
    fieldSelector: `metadata.name=${name}`,
    list: () => listAll(q => kube.core.listNamespace({ fieldSelector: `metadata.name=${name}`, ...q })),
    onList: items => (items.length === 0 ? true : undefined),
    check: (_ns, type) => (type === 'DELETED' ? true : undefined),
    what: `namespace ${name} to be deleted`,
    describe: ns => (ns ? `phase ${ns.status?.phase ?? 'unknown'}` : 'not seen'),
    timeoutMs,
    signal: kube.signal,
  });
  try {
    await kube.core.deleteNamespace({ name, propagationPolicy: 'Foreground' });
  } catch (e) {
    if (apiStatusCode(e) !== 404) {
      gone.catch(() => undefined);
      throw new Error(`failed to delete namespace ${name}: ${apiErrorMessage(e)}`, { cause: e });
    }
  }
  await gone;
}
