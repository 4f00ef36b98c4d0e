// Outbound UDP from an endpoint (agnhost netexec /dial?protocol=udp, a PowerShell
// UdpClient): the same path policy and NetworkPolicy as a TCP connect (./connect.ts),
// then one real datagram from the endpoint's own address and the first reply. A dropped
// datagram is silence until the caller's deadline, as on the wire: UDP has no refusal
// the sender sees here.

import dgram from 'node:dgram';
import { NetError } from './types.ts';
import type { Endpoint } from './types.ts';
import { isIPv4, isIPv6, toIPv4 } from './addresses.ts';
import type { Decision, Target } from './policy.ts';
import { type ConnectDeps, egressSource } from './connect.ts';

export interface UdpExchange {
  from: Endpoint;
  host: string;
  port: number;
  payload: Buffer;
  timeoutMs: number;
}

/** Sends one datagram and resolves with the first reply; ETIMEDOUT when none comes by the deadline. */
export async function exchangeUdp(deps: ConnectDeps, o: UdpExchange): Promise<{ reply: Buffer; local: { address: string; port: number } }> {
  const deadline = Date.now() + o.timeoutMs;
  let host = o.host.replace(/^\[(.*)\]$/, '$1');
  if (!isIPv4(host) && !isIPv6(host)) host = (await deps.resolve(o.from, host, deps.defaultDns(o.from), o.timeoutMs))[0];
  const target: Target = deps.topo.classify(host, o.port, o.from) ?? { kind: 'external', address: toIPv4(host), ipv6: isIPv6(host) };
  let d: Decision = deps.policy.decide(o.from, target, 'udp');
  if (d.allowed && target.kind === 'service') {
    const r = deps.services.preflight(host, o.port, 'udp', o.from);
    if (r && !r.ok) d = { allowed: false, mode: r.mode, reason: r.reason };
  }
  if (d.allowed && deps.netpol && target.kind !== 'service' && !target.apiServer) d = deps.netpol.decide(o.from, host, o.port, 'udp');
  const what = `udp ${host}:${o.port}`;
  if (!d.allowed && d.mode === 'unreachable') throw new NetError('EHOSTUNREACH', `${what}: no route to host (${d.reason})`);
  return new Promise((resolve, reject) => {
    const sock = deps.tracker.udpSocket(dgram.createSocket('udp4'));
    const finish = (e: NetError | undefined, reply?: Buffer): void => {
      deps.tracker.clearTimer(timer);
      const local = (() => {
        try {
          return sock.address();
        } catch {
          return { address: o.from.address, port: 0 };
        }
      })();
      try {
        sock.close();
      } catch {
        // already closed by the tracker's stop()
      }
      if (e) reject(e);
      else resolve({ reply: reply!, local: { address: local.address, port: local.port } });
    };
    const why = d.allowed ? 'no reply' : d.reason;
    const timer = deps.tracker.timer(() => finish(new NetError('ETIMEDOUT', `${what}: i/o timeout (${why})`)), Math.max(0, deadline - Date.now()));
    sock.on('error', () => finish(new NetError('ETIMEDOUT', `${what}: i/o timeout`)));
    sock.bind({ address: toIPv4(egressSource(deps, o.from, target)), port: 0 }, () => {
      // A dropped datagram leaves the socket and never arrives: the caller only waits.
      if (!d.allowed) return;
      sock.on('message', msg => finish(undefined, msg));
      sock.send(o.payload, o.port, toIPv4(host));
    });
  });
}
