// OpenSSH known_hosts, read to pin a node's host key: plain and hashed (|1|salt|hash) host
// patterns, [host]:port, wildcards and negation, @revoked markers (@cert-authority lines are
// skipped: node keys are pinned, not certified). Pure: tested without a server.

import { createHmac } from 'node:crypto';

export interface KnownHostEntry {
  marker?: '@revoked' | '@cert-authority';
  /** The host field as written ("win-1,10.0.0.4", "|1|salt|hash", "[10.0.0.4]:2222"). */
  hosts: string;
  keyType: string;
  /** The key blob (base64-decoded), compared byte for byte with what the server presents. */
  key: Buffer;
  line: number;
}

export function parseKnownHosts(text: string): KnownHostEntry[] {
  const out: KnownHostEntry[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const fields = line.split(/\s+/);
    let marker: KnownHostEntry['marker'];
    if (fields[0] === '@revoked' || fields[0] === '@cert-authority') marker = fields.shift() as KnownHostEntry['marker'];
    if (fields.length < 3) return;
    const [hosts, keyType, blob] = fields;
    const key = Buffer.from(blob, 'base64');
    if (!key.length) return;
    out.push({ marker, hosts, keyType, key, line: i + 1 });
  });
  return out;
}

/** The names a host is looked up by: "host" on port 22, "[host]:port" otherwise. */
export function lookupName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function wildcard(pattern: string): RegExp {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 'i');
}

function hashedMatches(field: string, name: string): boolean {
  const m = /^\|1\|([^|]+)\|([^|]+)$/.exec(field);
  if (!m) return false;
  const digest = createHmac('sha1', Buffer.from(m[1], 'base64')).update(name).digest('base64');
  return digest === m[2];
}

/** Whether the entry's host field names any of `names` (negated patterns win). */
export function entryMatches(entry: KnownHostEntry, names: string[]): boolean {
  if (entry.hosts.startsWith('|1|')) return names.some(n => hashedMatches(entry.hosts, n));
  let hit = false;
  for (const pattern of entry.hosts.split(',')) {
    const negated = pattern.startsWith('!');
    const re = wildcard(negated ? pattern.slice(1) : pattern);
    if (names.some(n => re.test(n))) {
      if (negated) return false;
      hit = true;
    }
  }
  return hit;
}

export type HostKeyVerdict = { ok: true; line: number } | { ok: false; reason: 'unknown' | 'mismatch' | 'revoked' };

/**
 * Is `presented` a known key for this host? Names are tried as given (node name, address),
 * each in its [host]:port form when the port is not 22.
 */
export function checkHostKey(entries: KnownHostEntry[], hostNames: string[], port: number, presented: Buffer): HostKeyVerdict {
  const names = hostNames.filter(Boolean).map(h => lookupName(h, port));
  const forHost = entries.filter(e => e.marker !== '@cert-authority' && entryMatches(e, names));
  if (forHost.some(e => e.marker === '@revoked' && e.key.equals(presented))) return { ok: false, reason: 'revoked' };
  const match = forHost.find(e => e.marker === undefined && e.key.equals(presented));
  if (match) return { ok: true, line: match.line };
  return { ok: false, reason: forHost.some(e => e.marker === undefined) ? 'mismatch' : 'unknown' };
}
