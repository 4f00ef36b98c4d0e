// The networking fixtures (declared once here so every feature names them identically) and
// the ports of the agnhost netexec servers behind them.

import type { FixtureSpec } from '../../fixtures/types.ts';

export const NETEXEC_PORT = 8080;

/** netexec --udp-port: upstream's EndpointUDPPort (test/e2e/framework), answering "hostname" with the pod name. */
export const NETEXEC_UDP_PORT = 8081;

export const SERVICE_PORT = 80;

/** timeoutSeconds of the affinity-timeout Service: short, so the idle rounds stay short. */
export const AFFINITY_TIMEOUT_SECONDS = 2;

const netexec = (id: string, os: 'windows' | 'linux', backend: boolean, winBackend: boolean): FixtureSpec => ({
  id,
  template: 'net-netexec',
  os,
  ...(os === 'windows' ? { pin: 'node' as const } : {}),
  params: { os, backend: backend ? 'yes' : 'no', winBackend: winBackend ? 'yes' : 'no' },
});

const byLabel = (key: string, value: string) => ({ selectorKey: key, selectorValue: value });

const WIN_BACKENDS = byLabel('wincheck.io/net-win-backend', 'yes');

/** The fixtures, by role. Windows pods are pinned to the target Windows node (same node). */
export const FX = {
  /** W client (and the server of L → W and of hairpin). */
  win: netexec('net-win', 'windows', false, false),
  /** W servers on the same node: the same-node target and the Windows backends. */
  winPeer: netexec('net-win-peer', 'windows', true, true),
  winPeer2: netexec('net-win-peer2', 'windows', true, true),
  /** L client and server. */
  linux: netexec('net-linux', 'linux', true, false),
  /** Linux host-network pod: the Linux node's own view (control of nodeport-local). */
  linuxHost: { id: 'net-linux-host', template: 'net-linux-hostnet', os: 'linux' } as FixtureSpec,
  svcMixed: { id: 'net-svc-mixed', template: 'net-svc-clusterip', os: 'linux', params: byLabel('wincheck.io/net-backend', 'yes') } as FixtureSpec,
  /** A ClusterIP Service over the Windows backends only (their EndpointSlices). */
  svcWin: { id: 'net-svc-win', template: 'net-svc-clusterip', os: 'linux', params: WIN_BACKENDS } as FixtureSpec,
  svcHairpin: { id: 'net-svc-hairpin', template: 'net-svc-clusterip', os: 'linux', params: byLabel('app', 'net-win') } as FixtureSpec,
  svcAffinity: { id: 'net-svc-affinity', template: 'net-svc-affinity', os: 'linux', params: { ...WIN_BACKENDS, timeoutSeconds: '10800' } } as FixtureSpec,
  svcAffinityTimeout: {
    id: 'net-svc-affinity-timeout',
    template: 'net-svc-affinity',
    os: 'linux',
    params: { ...WIN_BACKENDS, timeoutSeconds: String(AFFINITY_TIMEOUT_SECONDS) },
  } as FixtureSpec,
  /** The Service net.service-churn deletes and creates again (Windows backends). */
  svcChurn: { id: 'net-svc-churn', template: 'net-svc-clusterip', os: 'linux', params: WIN_BACKENDS } as FixtureSpec,
  svcNodePort: { id: 'net-svc-nodeport', template: 'net-svc-nodeport', os: 'linux', params: { ...WIN_BACKENDS, trafficPolicy: 'Cluster' } } as FixtureSpec,
  svcLocal: { id: 'net-svc-local', template: 'net-svc-nodeport', os: 'linux', params: { ...WIN_BACKENDS, trafficPolicy: 'Local' } } as FixtureSpec,
  svcLocalLinux: {
    id: 'net-svc-local-linux',
    template: 'net-svc-nodeport',
    os: 'linux',
    params: { ...byLabel('app', 'net-linux'), trafficPolicy: 'Local' },
  } as FixtureSpec,
  svcLb: {
    id: 'net-svc-lb',
    template: 'net-svc-lb',
    os: 'linux',
    params: { ...WIN_BACKENDS, trafficPolicy: 'Cluster', preserveDestination: 'false' },
  } as FixtureSpec,
  svcLbPreserve: {
    id: 'net-svc-lb-preserve',
    template: 'net-svc-lb',
    os: 'linux',
    params: { ...WIN_BACKENDS, trafficPolicy: 'Local', preserveDestination: 'true' },
  } as FixtureSpec,
  svcIpv6: { id: 'net-svc-ipv6', template: 'net-svc-ipv6', os: 'linux', params: WIN_BACKENDS } as FixtureSpec,
  dnsConfig: { id: 'net-dns-config', template: 'net-dns-config', os: 'windows', pin: 'node' } as FixtureSpec,
  hostnetDns: { id: 'net-hostnet-dns', template: 'net-hostnet-dns', os: 'windows', pin: 'node' } as FixtureSpec,
} satisfies Record<string, FixtureSpec>;

/** The W pod created at probe time on a second Windows node (cross-node path). */
export const FAR_POD = 'net-win-far';
