// nslookup. Windows images: the inbox tool's format (docs/windows-commands.md §3): server
// shown as "UnKnown", "Non-authoritative answer:" and "*** ... can't find" on
// stderr, exit 0 even when the name does not exist. Linux images: busybox format.
// (agnhost's BIND nslookup is not modelled; its format is UNCONFIRMED in the doc.)

import type { ProgramCtx } from '../types.ts';
import { lookupWithSearch } from './dnsnames.ts';
import { ABORTED_EXIT, sleep } from '../io.ts';

export async function runNslookup(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const pos = ctx.args.filter(a => !a.startsWith('-'));
  const name = pos[0];
  const server = pos[1] ?? host.dns.nameservers[0] ?? '';
  if (!name) {
    io.stderr.write(host.os === 'windows' ? 'Usage: nslookup [-opt ...] host [server]\r\n' : 'Usage: nslookup [HOST] [SERVER]\n');
    return 1;
  }
  return host.os === 'windows' ? windows(ctx, name, server) : linux(ctx, name, server);
}

async function windows(ctx: ProgramCtx, name: string, server: string): Promise<number> {
  const { host, io } = ctx;
  const w = (s: string): boolean => io.stdout.write(s.replace(/\n/g, '\r\n'));
  const e = (s: string): boolean => io.stderr.write(s.replace(/\n/g, '\r\n'));
  if (!server) {
    e(`*** Default servers are not available\n`);
    return 1;
  }
  const r = await lookupWithSearch(host, name, io.signal);
  if (!r.ok && r.code === 'EABORTED') return ABORTED_EXIT;
  if (!r.ok && r.code === 'ETIMEDOUT') {
    // Each try prints the timeout pair; the last line names the server (§3).
    for (let i = 0; i < 2; i++) {
      if (!(await sleep(2000, io.signal))) return ABORTED_EXIT;
      w('DNS request timed out.\n    timeout was 2 seconds.\n');
    }
    w(`Server:  UnKnown\nAddress:  ${server}\n\n`);
    e(`*** Request to UnKnown timed-out\n`);
    return 0;
  }
  w(`Server:  UnKnown\nAddress:  ${server}\n\n`);
  if (!r.ok) {
    const why = r.code === 'SERVFAIL' ? 'Server failed' : 'Non-existent domain';
    e(`*** UnKnown can't find ${name}: ${why}\n`);
    return 0;
  }
  // Answers from outside the cluster domain are forwarded, hence non-authoritative.
  const clusterDomain = host.dns.searches[host.dns.searches.length - 1] ?? 'cluster.local';
  if (!r.name.endsWith(clusterDomain)) e('Non-authoritative answer:\n');
  const [first, ...rest] = r.addresses;
  w(`Name:    ${r.name}\n`);
  if (rest.length === 0) w(`Address:  ${first}\n`);
  else w(`Addresses:  ${first}\n${rest.map(a => `          ${a}\n`).join('')}`);
  w('\n');
  return 0;
}

async function linux(ctx: ProgramCtx, name: string, server: string): Promise<number> {
  const { host, io } = ctx;
  const r = await lookupWithSearch(host, name, io.signal);
  if (!r.ok && r.code === 'EABORTED') return ABORTED_EXIT;
  if (!r.ok && r.code === 'ETIMEDOUT') {
    io.stdout.write(';; connection timed out; no servers could be reached\n\n');
    return 1;
  }
  io.stdout.write(`Server:\t\t${server}\nAddress:\t${server}:53\n\n`);
  if (!r.ok) {
    io.stdout.write(`** server can't find ${r.tried}: ${r.code === 'SERVFAIL' ? 'SERVFAIL' : 'NXDOMAIN'}\n\n`);
    return 1;
  }
  for (const a of r.addresses) io.stdout.write(`Name:\t${r.name}\nAddress: ${a}\n`);
  io.stdout.write('\n');
  return 0;
}
