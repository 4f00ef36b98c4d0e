// UDP to a Windows pod by pod IP, from a pod and from the Windows node (upstream
// test/e2e/windows/networking.go: "should function for intra-pod communication: udp" and
// "should function for node-pod communication: udp"). The pod probe is upstream's
// DialFromTestContainer: the client pod's own agnhost netexec /dial sends "hostname" over UDP
// to the server's 8081 and reports the answer; the positive control is the same /dial over
// HTTP to the server's 8080 from the same client. The node sends the datagram itself
// (PowerShell UdpClient over node access), with GET /hostname from the node as its control.

import type { V1Pod } from '@kubernetes/client-node';
import { readyPods } from '../kit/podWaits.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';
import { control } from '../kit/observe.ts';
import { podIP, urlOf } from './addresses.ts';
import { httpAttempt, oneLine } from './attempts.ts';
import { udpExpectation } from './expect.ts';
import { FX, NETEXEC_PORT, NETEXEC_UDP_PORT } from './netexec.ts';
import { dialResultOf, hostnameOf } from './parse.ts';
import { nodeTransportOf } from './pathChecks.ts';
import { type Attempt, controlPasses, steadyPeriod, warmupThenSteady } from './steady.ts';
import type { Transport } from '../../probes/types.ts';

const SUITE = 'networking';

/** One /dial from `client`'s netexec to `server` over `protocol`: ok when the server's pod name came back. */
async function dialAttempt(ctx: CheckContext, t: Transport, client: V1Pod, server: V1Pod, protocol: 'udp' | 'http'): Promise<Attempt> {
  const port = protocol === 'udp' ? NETEXEC_UDP_PORT : NETEXEC_PORT;
  const url = urlOf(podIP(client), NETEXEC_PORT, `/dial?request=hostname&protocol=${protocol}&host=${podIP(server)}&port=${port}&tries=1`);
  const a = await httpAttempt(ctx, t, url);
  if (!a.ok) return { ...a, detail: `${protocol} /dial: ${a.detail}` };
  const name = server.metadata?.name ?? '';
  const r = dialResultOf(a.evidence.stdout);
  if (!r)
    return {
      ok: false,
      detail: `${protocol} ${podIP(server)}:${port}: /dial answered no dial result: ${oneLine(a.evidence.stdout) || 'empty'}`,
      evidence: a.evidence,
    };
  if (r.responses.includes(name)) return { ok: true, detail: `${protocol} ${podIP(server)}:${port}: ${name} answered`, evidence: a.evidence };
  const why = r.errors.length ? r.errors.join('; ') : `answered ${r.responses.join(', ')}, not ${name}`;
  return { ok: false, detail: `${protocol} ${podIP(server)}:${port}: ${why}`, evidence: a.evidence };
}

/** What a UDP check concludes: the UDP path's verdict, voided (error) when the same path over TCP fails too. */
function udpObservation(
  udp: { ok: boolean; detail: string; evidence: Observation['evidence'] },
  tcp: { ok: boolean; detail: string; evidence: Observation['evidence'] },
  server: string,
  node?: string,
): Observation {
  return {
    works: udp.ok,
    summary: udp.ok ? `${udp.detail}; ${server} answered over UDP and over TCP` : `${udp.detail}; over TCP the same path answers`,
    evidence: udp.evidence,
    control: control(tcp.ok, tcp.ok ? `TCP control: ${tcp.detail}` : `TCP control failed: ${tcp.detail}`, tcp.evidence),
    node,
  };
}

/** The node's UDP client: one "hostname" datagram to ip:port and the reply, exit 1 without one in `ms`. */
export function udpClientScript(ip: string, port: number, ms: number): string {
  return [
    '$u = New-Object System.Net.Sockets.UdpClient',
    `$u.Connect('${ip}', ${port})`,
    "$b = [System.Text.Encoding]::ASCII.GetBytes('hostname')",
    '$null = $u.Send($b, $b.Length)',
    '$t = $u.ReceiveAsync()',
    `if (-not $t.Wait(${ms})) { $u.Close(); Write-Error 'TIMEOUT: no UDP reply'; exit 1 }`,
    '[System.Text.Encoding]::ASCII.GetString($t.Result.Buffer)',
    '$u.Close()',
  ].join('; ');
}

export const features: Feature[] = [
  {
    id: 'net.udp-pod-to-pod',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → Windows pod over UDP (pod IP; HTTP as control)',
    netPath: { from: 'windows-pod', to: 'windows-pod-same-node' },
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: c => udpExpectation(c, 'should function for intra-pod communication: udp'),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id, FX.winPeer.id]);
      if (!ready.ok) return ready.observation;
      const client = ready.pods[FX.win.id];
      const server = ready.pods[FX.winPeer.id];
      const t = ctx.podTransport(FX.win.id, 'windows');
      ctx.step(`UDP: ${FX.win.id} /dial → ${FX.winPeer.id} (${podIP(server)}:${NETEXEC_UDP_PORT}), HTTP to :${NETEXEC_PORT} as control`);
      const tcp = await controlPasses(ctx, 'W → W over TCP (/dial http)', () => dialAttempt(ctx, t, client, server, 'http'));
      const udp = await warmupThenSteady(ctx, 'W → W over UDP (/dial udp)', () => dialAttempt(ctx, t, client, server, 'udp'));
      return udpObservation(udp, tcp, FX.winPeer.id, client.spec?.nodeName);
    },
  },
  {
    id: 'net.udp-node-to-pod',
    area: 'networking',
    suite: SUITE,
    title: 'Windows node → pod IP over UDP (HTTP as control)',
    netPath: { from: 'windows-node', to: 'windows-pod-same-node' },
    needs: ['windows-node', 'node-access'],
    fixtures: [FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: c => udpExpectation(c, 'should function for node-pod communication: udp'),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.winPeer.id]);
      if (!ready.ok) return ready.observation;
      const server = ready.pods[FX.winPeer.id];
      const node = ctx.cluster.nodes.find(n => n.name === server.spec?.nodeName) ?? ctx.windowsNode!;
      const nt = await nodeTransportOf(ctx, node);
      if ('observation' in nt) return nt.observation;
      const ip = podIP(server);
      const name = server.metadata?.name ?? '';
      ctx.step(`UDP from node ${node.name} (${nt.t.description}) → ${ip}:${NETEXEC_UDP_PORT}, GET :${NETEXEC_PORT} as control`);
      const tcp = await controlPasses(ctx, `node ${node.name} → ${name} over TCP`, async () => {
        const a = await httpAttempt(ctx, nt.t, urlOf(ip, NETEXEC_PORT));
        return a.ok && hostnameOf(a.evidence.stdout) !== name ? { ...a, ok: false, detail: `${a.detail} (not ${name})` } : a;
      });
      const ms = Math.max(1000, ctx.options.timeouts.netConnect);
      const udp = await warmupThenSteady(ctx, `node ${node.name} → ${name} over UDP`, async () => {
        const r = await ctx.probe(nt.t, { kind: 'node-command', script: udpClientScript(ip, NETEXEC_UDP_PORT, ms) });
        const answered = hostnameOf(r.evidence.stdout);
        const ok = r.ok && answered === name;
        const detail = ok
          ? `udp ${ip}:${NETEXEC_UDP_PORT}: ${name} answered`
          : `udp ${ip}:${NETEXEC_UDP_PORT}: ${r.ok ? `answered ${oneLine(answered) || 'nothing'}, not ${name}` : oneLine(r.evidence.stderr) || r.detail}`;
        return { ok, detail, evidence: r.evidence };
      });
      return udpObservation(udp, tcp, name, node.name);
    },
  },
];
