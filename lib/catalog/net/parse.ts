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

export interface IpconfigAdapter {
  name: string;
  ipv4: string[];
  ipv6: string[];
  dnsServers: string[];
  dnsSuffix?: string;
}

export interface Ipconfig {
  hostName?: string;
  searchList: string[];
  adapters: IpconfigAdapter[];
}

/**
 * `ipconfig /all` (CRLF, "   Label . . . . : value", continuation lines indented with spaces only).
 * Values such as "10.244.2.4(Preferred)" lose the suffix.
 */
export function parseIpconfig(stdout: string): Ipconfig {
  const out: Ipconfig = { searchList: [], adapters: [] };
  let adapter: IpconfigAdapter | undefined;
  let lastKey: string | undefined;
  for (const raw of stdout.split(/\r?\n/)) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) {
      lastKey = undefined;
      continue;
    }
    const header = /^(?:Ethernet|Wireless LAN|Unknown) adapter (.+):\s*$/.exec(line);
    if (header) {
      adapter = { name: header[1], ipv4: [], ipv6: [], dnsServers: [] };
      out.adapters.push(adapter);
      lastKey = undefined;
      continue;
    }
    const kv = /^ {3}(\S[^.:]*?)[ .]*: ?(.*)$/.exec(line);
    if (kv) {
      lastKey = kv[1].trim().toLowerCase();
      add(lastKey, clean(kv[2]));
      continue;
    }
    if (/^\s{10,}\S/.test(line) && lastKey) add(lastKey, clean(line));
  }
  return out;

  function add(key: string, value: string) {
    if (!value) return;
    if (key === 'host name') out.hostName = value;
    else if (key === 'dns suffix search list') out.searchList.push(value);
    else if (!adapter) return;
    else if (key === 'dns servers') adapter.dnsServers.push(value);
    else if (key === 'ipv4 address' || key === 'ip address' || key === 'autoconfiguration ipv4 address') adapter.ipv4.push(value);
    else if (key === 'ipv6 address' || key === 'link-local ipv6 address') adapter.ipv6.push(value.replace(/%\d+$/, ''));
    else if (key === 'connection-specific dns suffix') adapter.dnsSuffix = value;
  }
}

function clean(v: string): string {
  return v.trim().replace(/\((?:Preferred|Deprecated|Tentative|Duplicate)\)$/i, '');
}

/** Every DNS server of every adapter, in order. */
export function dnsServersOf(cfg: Ipconfig): string[] {
  return cfg.adapters.flatMap(a => a.dnsServers);
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
