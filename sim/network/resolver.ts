// The client side of DNS: the name a pod's resolver really asks for, sent as real
// UDP queries from the pod's own address to its first nameserver.
//   Linux (glibc): search list with ndots; names with >= ndots dots go as-is first.
//   Windows: a dotted name is an FQDN (asked as-is only); only single-label names get
//   the suffixes (windows-networking.md), unless the profile lifts dnsDottedName.

import dgram from 'node:dgram';
import dnsPacket, { type Answer, type StringAnswer } from 'dns-packet';
import type { DnsConfig, Endpoint } from './types.ts';
import { NetError } from './types.ts';
import { isIPv4, isIPv6, isLoopback } from './addresses.ts';

export interface ResolveOptions {
  /** The whole lookup's deadline (default 5000 ms). */
  timeoutMs?: number;
  /** 'A' (default) or 'AAAA'. */
  type?: 'A' | 'AAAA';
}

/** The names a resolver tries, in order. */
export function candidates(name: string, os: 'linux' | 'windows', dns: DnsConfig, dottedIsFQDN: boolean): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const dots = name.split('.').length - 1;
  const searched = dns.searches.map(s => `${name}.${s.replace(/\.$/, '')}`);
  if (os === 'windows' && dottedIsFQDN) return dots > 0 ? [name] : searched;
  return dots >= dns.ndots ? [name, ...searched] : [...searched, name];
}

/** Resolves like the endpoint's resolver would; throws NetError ENOTFOUND / ETIMEDOUT. */
export async function resolveName(from: Endpoint, name: string, dns: DnsConfig, dottedIsFQDN: boolean, opts: ResolveOptions = {}): Promise<string[]> {
  if (isIPv4(name) || isIPv6(name)) return [name];
  // Containers of a pod share its network namespace: localhost is the pod's own address.
  if (name.toLowerCase() === 'localhost') return [from.address];
  const deadline = Date.now() + (opts.timeoutMs ?? 5000);
  const server = dns.nameservers[0];
  if (!server) throw new NetError('ENOTFOUND', `${name}: no DNS servers configured`);
  for (const cand of candidates(name, from.os, dns, dottedIsFQDN)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const r = await query(from.address, server, cand, opts.type ?? 'A', left);
    if (r.rcode === 'NOERROR' && r.addresses.length) return r.addresses;
    if (r.rcode === 'OTHER') throw new NetError('SERVFAIL', `${cand}: Server failed`);
  }
  if (Date.now() >= deadline) throw new NetError('ETIMEDOUT', `${name}: DNS request timed out`);
  throw new NetError('ENOTFOUND', `${name}: Non-existent domain`);
}

interface QueryResult {
  rcode: 'NOERROR' | 'NXDOMAIN' | 'OTHER';
  addresses: string[];
}

/** One real UDP query from `source` to `server`:53. A server off loopback can never answer. */
export function query(source: string, server: string, name: string, type: 'A' | 'AAAA', timeoutMs: number): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    const timeout = () => reject(new NetError('ETIMEDOUT', `${name}: DNS request timed out (server ${server})`));
    if (!isLoopback(server)) {
      setTimeout(timeout, timeoutMs);
      return;
    }
    const sock = dgram.createSocket('udp4');
    const id = Math.floor(Math.random() * 65535);
    const timer = setTimeout(() => {
      sock.close();
      timeout();
    }, timeoutMs);
    sock.on('error', e => {
      clearTimeout(timer);
      sock.close();
      reject(new NetError('ETIMEDOUT', `${name}: ${e.message}`));
    });
    sock.on('message', msg => {
      let p;
      try {
        p = dnsPacket.decode(msg);
      } catch {
        return;
      }
      if (p.id !== id) return;
      clearTimeout(timer);
      sock.close();
      const code = (p.flags ?? 0) & 0xf;
      const addresses = (p.answers ?? []).filter((a: Answer): a is StringAnswer => a.type === type).map(a => a.data);
      resolve({ rcode: code === 0 ? 'NOERROR' : code === 3 ? 'NXDOMAIN' : 'OTHER', addresses });
    });
    sock.bind({ address: source, port: 0 }, () => {
      sock.send(dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] }), 53, server);
    });
  });
}
