// The host's or pod's TCP connections, read so the display language does not matter:
// - `Get-NetTCPConnection | ConvertTo-Json`: State is the TcpState enum as a number
//   (https://learn.microsoft.com/en-us/previous-versions/windows/desktop/nettcpipcim/msft-nettcpconnection);
// - `netstat -an` rows ("  TCP    10.244.1.5:8080    10.0.0.4:51234    ESTABLISHED"): the state word is
//   localized on Windows, so a row whose word is not one of the English ones is read from its
//   addresses instead: a listening socket has no remote port (0.0.0.0:0, [::]:0), a connection has one.

export interface TcpConnection {
  proto: string;
  local: string;
  localPort: number;
  foreign: string;
  foreignPort: number;
  /** ESTABLISHED, LISTENING, TIME_WAIT...; CONNECTED for a localized word on a row with a remote port. */
  state: string;
}

const ENGLISH = new Set([
  'ESTABLISHED',
  'LISTENING',
  'LISTEN',
  'TIME_WAIT',
  'CLOSE_WAIT',
  'SYN_SENT',
  'SYN_RECEIVED',
  'SYN_RECV',
  'FIN_WAIT_1',
  'FIN_WAIT_2',
  'FIN_WAIT1',
  'FIN_WAIT2',
  'LAST_ACK',
  'CLOSING',
  'CLOSED',
  'BOUND',
  'DELETE_TCB',
]);

/** TcpState values of MSFT_NetTCPConnection. */
const TCP_STATE: Record<number, string> = {
  1: 'CLOSED',
  2: 'LISTENING',
  3: 'SYN_SENT',
  4: 'SYN_RECEIVED',
  5: 'ESTABLISHED',
  6: 'FIN_WAIT_1',
  7: 'FIN_WAIT_2',
  8: 'CLOSE_WAIT',
  9: 'CLOSING',
  10: 'LAST_ACK',
  11: 'TIME_WAIT',
  12: 'DELETE_TCB',
  100: 'BOUND',
};

/** A connection carries data both ways: ESTABLISHED, or a localized row with a remote end. */
export function isEstablished(c: TcpConnection): boolean {
  return c.state === 'ESTABLISHED' || c.state === 'CONNECTED';
}

/** `netstat -an` (Windows or Linux) or `Get-NetTCPConnection | ConvertTo-Json` output → connections. */
export function parseTcpConnections(stdout: string): TcpConnection[] {
  const t = stdout.trim();
  if (t.startsWith('[') || t.startsWith('{')) {
    const json = fromJson(t);
    if (json) return json;
  }
  const out: TcpConnection[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const m = /^\s*(TCP|tcp6?|TCPv6)\s+(?:\d+\s+\d+\s+)?(\S+)\s+(\S+)\s+(\S+)/.exec(line);
    if (!m) continue;
    const [local, localPort] = splitHostPort(m[2]);
    const [foreign, foreignPort] = splitHostPort(m[3]);
    const word = m[4].toUpperCase();
    const state = ENGLISH.has(word) ? (word === 'LISTEN' ? 'LISTENING' : word) : hasRemote(foreign, foreignPort) ? 'CONNECTED' : 'LISTENING';
    out.push({ proto: m[1].toUpperCase(), local, localPort, foreign, foreignPort, state });
  }
  return out;
}

function hasRemote(host: string, port: number): boolean {
  return !(port === 0 || Number.isNaN(port)) || !/^(0\.0\.0\.0|::|\*)$/.test(host);
}

function fromJson(text: string): TcpConnection[] | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  const rows = (Array.isArray(doc) ? doc : [doc]) as Record<string, unknown>[];
  return rows
    .filter(r => r && typeof r === 'object' && 'LocalPort' in r)
    .map(r => ({
      proto: String(r.LocalAddress ?? '').includes(':') ? 'TCPV6' : 'TCP',
      local: unmapped(String(r.LocalAddress ?? '')),
      localPort: Number(r.LocalPort),
      foreign: unmapped(String(r.RemoteAddress ?? '')),
      foreignPort: Number(r.RemotePort),
      state: typeof r.State === 'number' ? (TCP_STATE[r.State] ?? String(r.State)) : String(r.State ?? '').toUpperCase(),
    }));
}

function splitHostPort(s: string): [string, number] {
  const i = s.lastIndexOf(':');
  if (i < 0) return [s, NaN];
  return [unmapped(s.slice(0, i).replace(/^\[|\]$/g, '')), Number(s.slice(i + 1))];
}

/** ::ffff:10.0.0.1 → 10.0.0.1 (an IPv4 peer on a dual-stack socket). */
export function unmapped(ip: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip;
}
