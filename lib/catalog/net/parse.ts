// Parsers for what the networking probes read back, in the real formats of docs/windows-commands.md:
// curl exit codes and "curl: (N) ..." lines (§2), ipconfig /all (§4), ping replies (§4),
// agnhost netexec /hostname and /clientip bodies (§6), netstat -an. Pure: unit-tested.

import { isEstablished, parseTcpConnections, unmapped, type TcpConnection } from '../../probes/readers/tcpConnections.ts';

export { curlFailureOf, type CurlFailure } from '../../probes/readers/curl.ts';

/** agnhost /clientip answers "ip:port" (Go's RemoteAddr; IPv6 as "[ip]:port"). Returns the ip. */
export function clientIpOf(body: string): string | undefined {
  const s = body.trim();
  const v6 = /^\[([0-9a-fA-F:.]+)\]:\d+$/.exec(s);
  if (v6) return unmapped(v6[1]);
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(s);
  return v4?.[1];
}

export { unmapped };

/** agnhost /hostname answers the pod name (no newline from Go's fmt). */
export function hostnameOf(body: string): string {
  return body.trim();
}

/** The cluster domain from the pod's search list: "<ns>.svc.<domain>" → domain. */
export function clusterDomainOf(searchList: string[], namespace: string): string | undefined {
  const prefix = `${namespace}.svc.`.toLowerCase();
  const hit = searchList.map(s => s.toLowerCase()).find(s => s.startsWith(prefix));
  return hit?.slice(prefix.length).replace(/\.$/, '') || undefined;
}

/**
 * Windows `ping -n N` and Linux `ping -c N`: a reply is a "Reply from X: bytes=… TTL=" line (or
 * "bytes from"), not the exit code; "Destination host unreachable" counts as received but is no reply.
 */
export function pingReplies(stdout: string): number {
  return stdout.split(/\r?\n/).filter(l => /Reply from .*TTL=/i.test(l) || /\d+ bytes from /i.test(l)).length;
}

/** "could not find host" (Windows) / "bad address" (busybox) / "unknown host": the name did not resolve. */
export function pingUnresolved(stdout: string, stderr: string): boolean {
  return /could not find host|bad address|unknown host|Name or service not known/i.test(stdout + stderr);
}

/** nc -vz (busybox "bad address", OpenBSD getaddrinfo's words): the name did not resolve. */
export function nameUnresolved(stdout: string, stderr: string): boolean {
  return pingUnresolved(stdout, stderr) || /Temporary failure in name resolution|No address associated with hostname/i.test(stdout + stderr);
}

/** A row of `netstat -an` or of Get-NetTCPConnection (lib/probes/readers/tcpConnections.ts). */
export type NetstatEntry = TcpConnection;

/** `netstat -an` (any display language) or `Get-NetTCPConnection | ConvertTo-Json`. */
export const parseNetstat = parseTcpConnections;

/**
 * preserve-destination seen from the backends' netstat while a connection to the Service address
 * is held: "preserved" when a connection on the backend port has the Service address as its local
 * address (no DNAT), "dnat" when connections exist and none has it, "unseen" when there are none.
 */
export function destinationVerdict(entries: NetstatEntry[], serviceAddress: string, backendPort: number): 'preserved' | 'dnat' | 'unseen' {
  const conns = entries.filter(e => e.localPort === backendPort && isEstablished(e));
  if (conns.some(e => e.local === serviceAddress)) return 'preserved';
  return conns.length ? 'dnat' : 'unseen';
}

/** agnhost netexec /dial's answer: {"errors":[...],"responses":[...]} (either key absent when empty). */
export interface DialResult {
  responses: string[];
  errors: string[];
}

/** The /dial JSON body, or undefined when the body is not that JSON (a proxy's page, an empty reply). */
export function dialResultOf(body: string): DialResult | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body.trim());
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const strings = (x: unknown): string[] | undefined => (x === undefined ? [] : Array.isArray(x) && x.every(s => typeof s === 'string') ? x : undefined);
  const responses = strings(o.responses);
  const errors = strings(o.errors);
  if (!responses || !errors || (!('responses' in o) && !('errors' in o))) return undefined;
  return { responses: responses.map(r => r.trim()), errors };
}
