// A small cluster for the network twin's tests: a store with namespaces, nodes,
// pods (with real servers), Services and EndpointSlices inserted directly.

import type { Socket } from 'node:net';
import type { V1EndpointSlice, V1Service } from '@kubernetes/client-node';
import { Store, type KubeObject } from '../../sim/api/store.ts';
import type { Profile } from '../../sim/profiles/types.ts';
import { startNetwork, type SimNetwork } from '../../sim/network/index.ts';
import type { Endpoint } from '../../sim/network/types.ts';
import { netexecServer } from '../../sim/network/servers/netexec.ts';

export function makeProfile(over: Partial<Profile> = {}): Profile {
  return {
    name: 'net-test',
    kubernetesVersion: 'v1.33.1',
    nodes: [
      { name: 'cp', os: 'linux', role: 'control-plane' },
      { name: 'lin-1', os: 'linux' },
      { name: 'win-2022', os: 'windows', windowsBuild: '10.0.20348.2582', ssh: true },
      { name: 'win-2019', os: 'windows', windowsBuild: '10.0.17763.6189' },
    ],
    network: { mode: 'l2bridge', cni: 'flannel' },
    addons: { loadBalancer: true },
    ...over,
  };
}

export interface Pod {
  namespace: string;
  name: string;
  node: string;
  address: string;
  endpoint: Endpoint;
}

export class Cluster {
  private constructor(
    readonly store: Store,
    readonly net: SimNetwork,
    readonly profile: Profile,
  ) {}

  static async start(profile = makeProfile(), extra: Partial<Parameters<typeof startNetwork>[0]> = {}): Promise<Cluster> {
    const store = new Store();
    for (const b of ['pods', 'services', 'endpointslices.discovery.k8s.io']) store.registerNamespaced(b);
    for (const ns of ['default', 'kube-system', 'web']) store.create('namespaces', { metadata: { name: ns } });
    for (const n of profile.nodes) store.create('nodes', { metadata: { name: n.name, labels: { 'kubernetes.io/os': n.os } } });
    const net = await startNetwork({ store, profile, registerAdmission: true, ...extra });
    return new Cluster(store, net, profile);
  }

  pod(namespace: string, name: string, node: string, labels: Record<string, string> = {}, spec: object = {}): Pod {
    const address = this.net.allocatePodIP(namespace, name, node);
    const os = this.profile.nodes.find(n => n.name === node)?.os ?? 'linux';
    this.store.create('pods', {
      metadata: { name, namespace, labels },
      spec: { nodeName: node, containers: [{ name: 'c', image: 'agnhost' }], ...spec },
      status: { phase: 'Running', podIP: address, podIPs: [{ ip: address }] },
    });
    return { namespace, name, node, address, endpoint: { kind: 'pod', id: `${namespace}/${name}`, os, node, address } };
  }

  /** A pod running agnhost netexec on `port`. */
  async netexecPod(namespace: string, name: string, node: string, port = 8080, labels: Record<string, string> = {}): Promise<Pod> {
    const p = this.pod(namespace, name, node, labels);
    await this.net.listen(p.address, port, netexecServer({ podName: name }));
    return p;
  }

  service(namespace: string, name: string, spec: V1Service['spec']): V1Service {
    return this.store.create('services', { metadata: { name, namespace }, spec } as KubeObject) as unknown as V1Service;
  }

  slice(namespace: string, service: string, backends: (Pod & { hostname?: string; ready?: boolean })[], port = 8080, portName = ''): void {
    const slice: V1EndpointSlice = {
      addressType: 'IPv4',
      metadata: { name: `${service}-abcde`, namespace, labels: { 'kubernetes.io/service-name': service } },
      endpoints: backends.map(b => ({
        addresses: [b.address],
        nodeName: b.node,
        hostname: b.hostname,
        conditions: { ready: b.ready ?? true },
        targetRef: { kind: 'Pod', name: b.name, namespace },
      })),
      ports: [{ name: portName, port, protocol: 'TCP' }],
    };
    this.store.create('endpointslices.discovery.k8s.io', slice as unknown as KubeObject);
  }

  stop(): Promise<void> {
    return this.net.stop();
  }
}

/** Polls until fn stops throwing, or rethrows its last error at the deadline. */
export async function eventually<T>(fn: () => Promise<T> | T, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise(r => setTimeout(r, 20));
    }
  }
}

/** One HTTP/1.0 GET over an already connected socket; resolves to the raw response. */
export function httpGet(s: Socket, path: string, host = 'x'): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    let data = '';
    s.setEncoding('utf8');
    s.on('data', d => {
      data += d;
    });
    s.on('error', reject);
    s.on('end', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: rest.join('\r\n\r\n') });
    });
    s.write(`GET ${path} HTTP/1.0\r\nHost: ${host}\r\n\r\n`);
  });
}

/** connect + GET in one go, from an endpoint through the twin. */
export async function fetchVia(net: SimNetwork, from: Endpoint, host: string, port: number, path: string, timeoutMs = 2000) {
  const s = await net.connect({ from, host, port, timeoutMs });
  return httpGet(s, path);
}
