// A watch refused with 401 while the credential can be had anew (an exec plugin, a tokenFile) is
// opened once more with it, as client-go's exec authenticator retries any request on a 401; a
// second 401 in a row, or one that no new credential can cure, ends the wait as refused.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import { watchUntil } from '../../../lib/cluster/watch.ts';

type Opening = (onEvent: (type: string, obj: V1Pod) => void, done: (err: unknown) => void) => void;

/** Clients whose watches answer as `openings` say, one after another; lists are empty. */
function clients(openings: Opening[]): { kube: KubeClients; opened: () => number } {
  let n = 0;
  const kube = {
    watch: {
      watch: async (_path: string, _query: unknown, onEvent: (type: string, obj: V1Pod) => void, done: (err: unknown) => void) => {
        const open = openings[Math.min(n++, openings.length - 1)];
        setImmediate(() => open(onEvent, done));
        return new AbortController();
      },
    },
  } as unknown as KubeClients;
  return { kube, opened: () => n };
}

const refused =
  (renewable: boolean): Opening =>
  (_, done) =>
    done(Object.assign(new Error('Unauthorized'), { statusCode: 401, renewable }));
const ready: Opening = onEvent => onEvent('MODIFIED', { metadata: { name: 'p', resourceVersion: '2' }, status: { phase: 'Running' } });

const wait = (kube: KubeClients) =>
  watchUntil<V1Pod, string>({
    kube,
    path: '/api/v1/namespaces/t/pods',
    list: async () => ({ items: [], metadata: { resourceVersion: '1' } }),
    check: p => (p.status?.phase === 'Running' ? 'running' : undefined),
    what: 'the pod to run',
    describe: () => 'none',
    timeoutMs: 5_000,
  });

describe('watchUntil on a 401', () => {
  it('opens the watch once more when a fresh credential may be had, and sees what comes', async () => {
    const { kube, opened } = clients([refused(true), ready]);
    expect(await wait(kube)).to.equal('running');
    expect(opened()).to.equal(2);
  });

  it('two 401s in a row end the wait as refused', async () => {
    const { kube, opened } = clients([refused(true), refused(true), ready]);
    let err: unknown;
    await wait(kube).catch(e => (err = e));
    expect(String(err)).to.match(/refused the watch of \/api\/v1\/namespaces\/t\/pods \(HTTP 401\)/);
    expect(opened()).to.equal(2);
  });

  it('a 401 no new credential can cure ends it at once', async () => {
    const { kube, opened } = clients([refused(false), ready]);
    let err: unknown;
    await wait(kube).catch(e => (err = e));
    expect(String(err)).to.match(/HTTP 401/);
    expect(opened()).to.equal(1);
  });
});
