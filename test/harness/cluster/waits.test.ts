// The wait helpers: reconnect and relist logic against a scripted Watch, and their failure
// text against the simulated cluster (as the e2e framework tests its waits on a fake client).

import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { makeClients } from '../../../lib/cluster/client.ts';
import { exitCodeOf } from '../../../lib/cluster/exec.ts';
import { PodGoneError, PodStartError, waitForPodCondition, waitTimeoutForPodReady } from '../../../lib/cluster/podWait.ts';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import { WaitTimeoutError, watchUntil } from '../../../lib/cluster/watch.ts';
import { ROOT } from '../../support/cli.ts';

type Obj = { metadata: { name: string; resourceVersion: string }; ready?: boolean };
type Callback = (type: string, obj: unknown) => void;

/** A Watch that plays one script per watch() call: events, then how the stream ends. */
function scriptedKube(scripts: { events: [string, unknown][]; end: unknown }[], lists: Obj[][]) {
  const calls: { rv?: unknown }[] = [];
  let listCalls = 0;
  const kube = {
    watch: {
      async watch(_path: string, query: Record<string, unknown>, cb: Callback, done: (err: unknown) => void) {
        calls.push({ rv: query.resourceVersion });
        const script = scripts.shift();
        const controller = new AbortController();
        if (!script) return controller; // stays open until the wait ends
        setImmediate(() => {
          for (const [t, o] of script.events) cb(t, o);
          done(script.end);
        });
        return controller;
      },
    },
  } as unknown as KubeClients;
  const list = async () => ({ items: lists[Math.min(listCalls++, lists.length - 1)], metadata: { resourceVersion: `list-${listCalls}` } });
  return { kube, calls, list, listCalls: () => listCalls };
}

const obj = (rv: string, ready = false): Obj => ({ metadata: { name: 'x', resourceVersion: rv }, ready });

describe('watchUntil', () => {
  it('restarts a closed watch from the last resourceVersion', async () => {
    const s = scriptedKube(
      [
        { events: [['MODIFIED', obj('7')]], end: null },
        { events: [['MODIFIED', obj('9', true)]], end: null },
      ],
      [[obj('5')]],
    );
    const r = await watchUntil<Obj, Obj>({
      kube: s.kube,
      path: '/p',
      list: s.list,
      check: o => (o.ready ? o : undefined),
      what: 'x ready',
      describe: () => '',
      timeoutMs: 5000,
    });
    expect(r.metadata.resourceVersion).to.equal('9');
    expect(s.calls.map(c => c.rv)).to.deep.equal(['list-1', '7']);
  });

  it('relists on 410 Gone', async () => {
    const s = scriptedKube([{ events: [['ERROR', { kind: 'Status', code: 410 }]], end: null }], [[obj('5')], [obj('20', true)]]);
    const r = await watchUntil<Obj, Obj>({
      kube: s.kube,
      path: '/p',
      list: s.list,
      check: o => (o.ready ? o : undefined),
      what: 'x ready',
      describe: () => '',
      timeoutMs: 5000,
    });
    expect(r.metadata.resourceVersion).to.equal('20');
    expect(s.listCalls()).to.equal(2);
  });

  it('times out with the last state seen', async () => {
    const s = scriptedKube([{ events: [['MODIFIED', obj('8')]], end: undefined }], [[obj('5')]]);
    let err: unknown;
    try {
      await watchUntil<Obj, Obj>({
        kube: s.kube,
        path: '/p',
        list: s.list,
        check: () => undefined,
        what: 'x to be ready',
        describe: o => `rv ${o?.metadata.resourceVersion}`,
        timeoutMs: 300,
      });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(WaitTimeoutError);
    expect((err as Error).message).to.equal('timed out after 0s waiting for x to be ready; last state seen: rv 8');
  });

  it('maps exec Status to exit codes', () => {
    expect(exitCodeOf({ status: 'Success' })).to.equal(0);
    expect(exitCodeOf({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '7' }] } })).to.equal(7);
    expect(exitCodeOf({ status: 'Failure', message: 'container not found' })).to.equal(-1);
    expect(exitCodeOf(undefined)).to.equal(-1);
  });
});

describe('pod waits against the simulated cluster', function () {
  this.timeout(120_000);
  const simEntry = join(ROOT, 'sim', 'index.ts');
  let kube: KubeClients;
  let stop: (() => Promise<void>) | undefined;
  const ns = 'wincheck-waits';

  before(async function () {
    if (!existsSync(simEntry)) {
      console.log(`    (skipped: ${simEntry} does not exist yet)`);
      this.skip();
    }
    const sim = (await import(simEntry)) as { startSim(o: object): Promise<{ kubeconfig: string; stop(): Promise<void> }> };
    const s = await sim.startSim({});
    stop = s.stop;
    const kc = new KubeConfig();
    kc.loadFromString(s.kubeconfig);
    kube = makeClients(kc);
    await kube.core.createNamespace({ body: { metadata: { name: ns } } });
  });
  after(async () => {
    await stop?.();
  });

  const pod = (name: string, spec: Partial<V1Pod['spec']>): V1Pod => ({
    metadata: { name, namespace: ns },
    spec: {
      containers: [{ name: 'c', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: ['pause'] }],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      ...spec,
    },
  });

  async function failure(p: V1Pod, ms = 60_000): Promise<PodStartError> {
    await kube.core.createNamespacedPod({ namespace: ns, body: p });
    try {
      await waitTimeoutForPodReady(kube, ns, p.metadata!.name!, ms);
    } catch (e) {
      return e as PodStartError;
    }
    throw new Error('expected the wait to fail');
  }

  it('resolves when the pod is Ready', async () => {
    await kube.core.createNamespacedPod({ namespace: ns, body: pod('ready', {}) });
    const p = await waitTimeoutForPodReady(kube, ns, 'ready', 60_000);
    expect(p.status?.conditions?.find(c => c.type === 'Ready')?.status).to.equal('True');
  });

  it('fails fast on an image that cannot be pulled, with the event text', async () => {
    const e = await failure(pod('nopull', { containers: [{ name: 'c', image: 'registry.invalid/wincheck/nope:1' }] }));
    expect(e).to.be.instanceOf(PodStartError);
    expect(e.reason).to.be.oneOf(['ErrImagePull', 'ImagePullBackOff']);
    expect(e.message).to.match(/^expected pod wincheck-waits\/nopull to be Ready, got (ErrImagePull|ImagePullBackOff) instead: phase Pending/);
    expect(e.message).to.contain('events:');
  });

  it('fails fast when the pod cannot be scheduled, with the scheduler message', async () => {
    const e = await failure(pod('nowhere', { nodeSelector: { 'kubernetes.io/os': 'plan9' } }));
    expect(e.reason).to.equal('FailedScheduling');
    expect(e.message).to.contain('not scheduled').and.contain('FailedScheduling');
  });

  it("times out with the pod's last warning events when nothing fails fast", async () => {
    // An unknown runAsUserName fails the Windows pod sandbox over and over (docs/windows-commands.md §1):
    // no fail-fast reason, so the wait runs to its deadline and must say why the pod never started.
    await kube.core.createNamespacedPod({
      namespace: ns,
      body: pod('nosandbox', {
        nodeSelector: { 'kubernetes.io/os': 'windows' },
        tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
        securityContext: { windowsOptions: { runAsUserName: 'NoSuchUser' } },
      }),
    });
    try {
      await waitTimeoutForPodReady(kube, ns, 'nosandbox', 3_000);
      expect.fail('expected a timeout');
    } catch (e) {
      expect(e).to.be.instanceOf(WaitTimeoutError);
      expect((e as Error).message).to.match(
        /^timed out after 3s waiting for pod wincheck-waits\/nosandbox to be Ready; last state seen: .*; last warning events: .*Warning FailedCreatePodSandBox: .*The user name or password is incorrect/,
      );
    }
  });

  it('times out with the last state seen', async () => {
    // A 1 ms deadline expires while the pod is still starting.
    await kube.core.createNamespacedPod({ namespace: ns, body: pod('slow', {}) });
    try {
      await waitTimeoutForPodReady(kube, ns, 'slow', 1);
      expect.fail('expected a timeout');
    } catch (e) {
      expect(e).to.be.instanceOf(WaitTimeoutError);
      expect((e as Error).message).to.match(/^timed out after 0s waiting for pod wincheck-waits\/slow to be Ready; last state seen: /);
    }
  });

  it('stops at once when the pod can no longer appear: a namespace that is gone, a pod deleted while waited for', async () => {
    const t = Date.now();
    const gone = await waitTimeoutForPodReady(kube, 'wincheck-no-such-namespace', 'x', 20_000).catch(e => e);
    expect(gone).to.be.instanceOf(PodGoneError);
    expect((gone as Error).message).to.equal('pod wincheck-no-such-namespace/x can never appear: namespace wincheck-no-such-namespace does not exist');
    // Pinned Pending (no node matches), then deleted: the wait ends on the DELETED event.
    await kube.core.createNamespacedPod({ namespace: ns, body: pod('doomed', { nodeSelector: { 'kubernetes.io/os': 'windows', absent: 'label' } }) });
    // Deleted once the wait has seen it (its condition is asked), so the DELETED event is the wait's to see.
    let seen = false;
    const deleted = await waitForPodCondition(
      kube,
      ns,
      'doomed',
      'Ready',
      () => {
        if (!seen) {
          seen = true;
          void kube.core.deleteNamespacedPod({ namespace: ns, name: 'doomed', gracePeriodSeconds: 0 });
        }
        return false;
      },
      20_000,
      { failFast: false },
    ).catch(e => e);
    expect(deleted).to.be.instanceOf(PodGoneError);
    expect((deleted as Error).message).to.match(/^pod wincheck-waits\/doomed was deleted while waiting for it to be Ready/);
    expect(Date.now() - t).to.be.below(30_000);
  });
});
