// Which fully-qualified name a resolver tool reports for a query: names without a
// dot get the search suffixes in order; dotted names are taken as FQDNs on Windows
// (docs/windows-commands.md §3 "How Windows treats dotted names"), while Linux applies ndots.

import type { ShellHost } from '../types.ts';
import type { NetErrorCode } from '../../../network/types.ts';
import { resolveName } from './net.ts';

export type Lookup = { ok: true; name: string; addresses: string[] } | { ok: false; code: NetErrorCode | 'EABORTED'; tried: string };

export async function lookupWithSearch(host: ShellHost, query: string, signal: AbortSignal): Promise<Lookup> {
  const q = query.replace(/\.$/, '');
  const absolute = query.endsWith('.');
  const dots = (q.match(/\./g) ?? []).length;
  const searchFirst = !absolute && (host.os === 'windows' ? dots === 0 : dots < host.dns.ndots);
  const candidates = absolute
    ? [q]
    : searchFirst
      ? [...host.dns.searches.map(s => `${q}.${s}`), ...(host.os === 'windows' ? [] : [q])]
      : host.os === 'windows'
        ? [q]
        : [q, ...host.dns.searches.map(s => `${q}.${s}`)];
  if (candidates.length === 0) candidates.push(q);
  let last: Lookup = { ok: false, code: 'ENOTFOUND', tried: candidates[candidates.length - 1] ?? q };
  for (const c of candidates) {
    const r = await resolveName(host, `${c}`, signal);
    if (r.ok) return { ok: true, name: c, addresses: r.value };
    last = { ok: false, code: r.code, tried: c };
    if (r.code !== 'ENOTFOUND') return last;
  }
  return last;
}
