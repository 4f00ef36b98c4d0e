// Test fixture for the node runtime: a Store with the buckets the kubelet uses, a
// profile with Linux and Windows nodes, a fake network twin, the interpreter (the
// real one when it loads, else a stub), and waits on store events with deadlines.

import { PassThrough, Writable } from 'node:stream';
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { Store, type KubeObject } from '../../sim/api/store.ts';
import type { Profile } from '../../sim/profiles/types.ts';
import type { RunCommand } from '../../sim/runtime/shell/types.ts';
import { startRuntime, type Runtime } from '../../sim/runtime/index.ts';
import { FakeNetwork } from './runtimeNetwork.ts';
import { stubRunCommand } from './stubShell.ts';
import { runCommand } from '../../sim/runtime/shell/index.ts';

export const NS = 'rt';
export const WIN = 'win-2022';
export const WIN19 = 'win-2019';
export const LIN = 'linux-1';

export function testProfile(extra: Partial<Profile> = {}): Profile {
  return {
    name: 'runtime-test',
    kubernetesVersion: 'v1.33.2',
    nodes: [
      { name: LIN, os: 'linux', containerRuntime: 'containerd://1.7.22', capacity: { cpu: '4', memory: '16Gi' }, reservedMemory: '512Mi' },
      {
        name: WIN,
        os: 'windows',
        windowsBuild: '10.0.20348.2582',
        containerRuntime: 'containerd://1.7.22',
        capacity: { cpu: '4', memory: '16Gi' },
        reservedMemory: '2Gi',
      },
      {
        name: WIN19,
        os: 'windows',
        windowsBuild: '10.0.17763.6189',
        containerRuntime: 'containerd://1.7.22',
        capacity: { cpu: '4', memory: '16Gi' },
        reservedMemory: '2Gi',
      },
    ],
    network: { mode: 'l2bridge', cni: 'flannel', clusterDomain: 'cluster.local' },
    addons: { metricsServer: true, hypervRuntimeClass: true },
    imagePullLatencyMs: 150,
    ...extra,
  };
}

/** The real interpreter, or the stub when SIM_RUNTIME_STUB_SHELL=1 (to tell runtime bugs from interpreter ones). */
export function interpreterUnderTest(): Promise<RunCommand> {
  return Promise.resolve(process.env.SIM_RUNTIME_STUB_SHELL ? stubRunCommand : runCommand);
}

export interface Fixture {
  store: Store;
  net: FakeNetwork;
  runtime: Runtime;
  profile: Profile;
  stop(): Promise<void>;
}

export async function startFixture(profile = testProfile()): Promise<Fixture> {
  const store = new Store();
  for (const b of ['pods', 'secrets', 'configmaps', 'events', 'persistentvolumeclaims', 'services']) store.registerNamespaced(b);
  store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const net = new FakeNetwork(profile.nodes.map(n => n.name));
  const runtime = startRuntime({
    store,
    profile,
    network: net,
    options: { runCommand: await interpreterUnderTest(), crashBackoffBaseMs: 300, pullBackoffBaseMs: 300, retryMs: 200 },
  });
  return {
    store,
    net,
    runtime,
    profile,
    stop: async () => {
      await runtime.stop();
      await net.stop();
    },
  };
}

/** Creates a pod bound to a node (as the scheduler would) in the test namespace. */
export function createPod(
  store: Store,
  node: string,
  name: string,
  spec: Partial<NonNullable<V1Pod['spec']>>,
  meta: Partial<NonNullable<V1Pod['metadata']>> = {},
): V1Pod {
  const pod: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, ...meta },
    spec: { containers: [], ...spec, nodeName: node },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] },
  };
  return store.create('pods', pod as unknown as KubeObject) as unknown as V1Pod;
}

export function getPod(store: Store, name: string): V1Pod | undefined {
  return store.tryGet('pods', NS, name) as unknown as V1Pod | undefined;
}

/** Resolves with the pod once pred holds (checked now and on every change); rejects at the deadline. */
export function waitPod(store: Store, name: string, what: string, pred: (p: V1Pod) => boolean, timeoutMs = 15_000): Promise<V1Pod> {
  return new Promise((resolve, reject) => {
    let w: { stop(): void } | undefined;
    const done = (p: V1Pod) => {
      clearTimeout(t);
      w?.stop();
      resolve(p);
    };
    const t = setTimeout(() => {
      w?.stop();
      reject(
        new Error(
          `timed out after ${timeoutMs} ms waiting for pod ${name} to be ${what}; last status: ${JSON.stringify(getPod(store, name)?.status ?? 'gone')}\nevents:\n${events(
            store,
            name,
          )
            .map(e => `  ${e.type} ${e.reason}: ${e.message}`)
            .join('\n')}`,
        ),
      );
    }, timeoutMs);
    w = store.watch('pods', { namespace: NS, fieldSelector: `metadata.name=${name}` }, e => {
      const p = e.object as unknown as V1Pod;
      if (e.type !== 'DELETED' && pred(p)) queueMicrotask(() => done(p));
    });
  });
}

export function waitGone(store: Store, name: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!getPod(store, name)) return resolve();
    const t = setTimeout(() => {
      w.stop();
      reject(new Error(`pod ${name} still present after ${timeoutMs} ms`));
    }, timeoutMs);
    const w = store.watch('pods', { namespace: NS, fieldSelector: `metadata.name=${name}`, resourceVersion: store.currentRV() }, e => {
      if (e.type === 'DELETED') {
        clearTimeout(t);
        w.stop();
        resolve();
      }
    });
  });
}

export function events(store: Store, pod: string): CoreV1Event[] {
  return store
    .list('events', { namespace: NS })
    .items.map(e => e as unknown as CoreV1Event)
    .filter(e => e.involvedObject.name === pod);
}

export const isReady = (p: V1Pod) => p.status?.conditions?.some(c => c.type === 'Ready' && c.status === 'True') ?? false;
export const waitingReason = (p: V1Pod, i = 0) => p.status?.containerStatuses?.[i]?.state?.waiting?.reason;

export interface ExecOut {
  exitCode: number;
  stdout: string;
  stderr: string;
  error?: string;
}

/** Runs exec through the handlers, collecting output. */
export async function exec(rt: Runtime, pod: string, command: string[], container?: string, timeoutMs = 10_000): Promise<ExecOut> {
  let stdout = '',
    stderr = '';
  const sink = (f: (s: string) => void) =>
    new Writable({
      write: (c: Buffer, _e, cb) => {
        f(c.toString());
        cb();
      },
    });
  const signal = AbortSignal.timeout(timeoutMs);
  const r = await rt.handlers.exec(
    { namespace: NS, pod, container, command, stdin: false, tty: false },
    {
      stdin: null,
      stdout: sink(s => {
        stdout += s;
      }),
      stderr: sink(s => {
        stderr += s;
      }),
    },
    signal,
  );
  return { ...r, stdout, stderr };
}

/** Reads logs through the handlers. */
export async function logs(
  rt: Runtime,
  pod: string,
  opts: { previous?: boolean; follow?: boolean; tailLines?: number; container?: string } = {},
  signal = AbortSignal.timeout(10_000),
): Promise<string> {
  let out = '';
  const pt = new PassThrough();
  pt.on('data', (d: Buffer) => {
    out += d.toString();
  });
  await rt.handlers.log(
    { namespace: NS, pod, follow: opts.follow ?? false, previous: opts.previous, tailLines: opts.tailLines, container: opts.container },
    pt,
    signal,
  );
  return out;
}

/** Resolves with the first event about the pod matching pred (existing or new); rejects at the deadline. */
export function waitEvent(store: Store, pod: string, pred: (e: CoreV1Event) => boolean, timeoutMs = 15_000): Promise<CoreV1Event> {
  return new Promise((resolve, reject) => {
    let w: { stop(): void } | undefined;
    const t = setTimeout(() => {
      w?.stop();
      reject(
        new Error(
          `no matching event for pod ${pod} within ${timeoutMs} ms; events:\n${events(store, pod)
            .map(e => `  ${e.reason}: ${e.message}`)
            .join('\n')}`,
        ),
      );
    }, timeoutMs);
    w = store.watch('events', { namespace: NS }, e => {
      const ev = e.object as unknown as CoreV1Event;
      if (ev.involvedObject?.name === pod && pred(ev))
        queueMicrotask(() => {
          clearTimeout(t);
          w?.stop();
          resolve(ev);
        });
    });
  });
}
