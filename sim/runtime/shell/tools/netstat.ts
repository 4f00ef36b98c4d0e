// netstat -a / -n / -o / -p <proto>: the container's (or node's) socket table as the
// network twin knows it (NetworkTwin.socketTable: listeners of servers in the pod, the
// connections they accepted, connections the pod opened). docs/windows-commands.md has no
// netstat section: the Windows layout is the well-known inbox one ("Active Connections",
// columns "Proto  Local Address  Foreign Address  State [PID]", CRLF), UNCONFIRMED in
// detail; without -n real netstat prints host names, the sim always prints numbers.
// PIDs are not modelled: -o shows one stable made-up PID per local port (UNCONFIRMED).
// Linux images: busybox netstat's layout (LF).

import type { SocketEntry } from '../../../network/types.ts';
import type { ProgramCtx } from '../types.ts';

type Row = { proto: 'TCP' | 'TCPv6' | 'UDP' | 'UDPv6'; local: string; foreign: string; state: string; port: number; sortKey: string };

const PROTOS = ['TCP', 'TCPv6', 'UDP', 'UDPv6'] as const;

const USAGE = [
  '',
  'Displays protocol statistics and current TCP/IP network connections.',
  '',
  'NETSTAT [-a] [-b] [-e] [-f] [-n] [-o] [-p proto] [-r] [-s] [-x] [-t] [interval]',
  '',
];

function sortKey(addr: string, port: number): string {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(addr);
  const a = v4
    ? v4
        .slice(1)
        .map(x => x.padStart(3, '0'))
        .join('.')
    : addr;
  return `${a}:${String(port).padStart(5, '0')}`;
}

/** Rows of both families: a wildcard listener also listens on [::] (Go and IIS listeners are dual-stack). */
function rows(entries: SocketEntry[]): Row[] {
  const out: Row[] = [];
  for (const e of entries) {
    const local = `${e.local.address}:${e.local.port}`;
    if (e.proto === 'UDP') {
      out.push({ proto: 'UDP', local, foreign: '*:*', state: '', port: e.local.port, sortKey: sortKey(e.local.address, e.local.port) });
      if (e.local.address === '0.0.0.0')
        out.push({ proto: 'UDPv6', local: `[::]:${e.local.port}`, foreign: '*:*', state: '', port: e.local.port, sortKey: sortKey('::', e.local.port) });
      continue;
    }
    if (e.state === 'LISTENING') {
      out.push({ proto: 'TCP', local, foreign: '0.0.0.0:0', state: 'LISTENING', port: e.local.port, sortKey: sortKey(e.local.address, e.local.port) });
      out.push({
        proto: 'TCPv6',
        local: `[::]:${e.local.port}`,
        foreign: '[::]:0',
        state: 'LISTENING',
        port: e.local.port,
        sortKey: sortKey('::', e.local.port),
      });
      continue;
    }
    const f = e.foreign ?? { address: '0.0.0.0', port: 0 };
    out.push({
      proto: 'TCP',
      local,
      foreign: `${f.address}:${f.port}`,
      state: 'ESTABLISHED',
      port: e.local.port,
      sortKey: sortKey(e.local.address, e.local.port),
    });
  }
  return out.sort((a, b) => PROTOS.indexOf(a.proto) - PROTOS.indexOf(b.proto) || a.sortKey.localeCompare(b.sortKey));
}

/** A made-up, stable PID for the process owning a local port (PIDs are not modelled). */
function pidOf(port: number): number {
  return 1000 + ((port * 7919) % 7000) * 4;
}

export async function runNetstat(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const windows = host.os === 'windows';
  let all = false,
    pid = false;
  let proto: string | undefined;
  for (let i = 0; i < ctx.args.length; i++) {
    const a = ctx.args[i]!;
    if (/^\d+$/.test(a)) continue; // interval: printed once (the sim never loops)
    const flags = windows ? /^[-/]([a-z]+)$/i.exec(a) : /^-([a-z]+)$/i.exec(a);
    if (!flags) return usage(ctx);
    for (const c of flags[1]!.toLowerCase()) {
      if (c === 'a') all = true;
      else if (c === 'o' && windows) pid = true;
      else if (c === 'p' && windows) {
        proto = ctx.args[++i];
        if (!proto) return usage(ctx);
      } else if ('n'.includes(c) || (!windows && 'tuwlp'.includes(c))) continue;
      else return usage(ctx);
    }
  }
  const entries = host.net.socketTable?.(host.endpoint.address) ?? [];
  let list = rows(entries);
  if (!all) list = list.filter(r => r.state === 'ESTABLISHED');
  if (windows) {
    if (proto) {
      const want = PROTOS.find(p => p.toLowerCase() === proto!.toLowerCase());
      if (!want) return usage(ctx);
      list = list.filter(r => r.proto === want);
    }
    const col = (s: string, w: number) => `${s.padEnd(w - 1)} `;
    const lines = [
      '',
      'Active Connections',
      '',
      `  ${col('Proto', 7)}${col('Local Address', 23)}${col('Foreign Address', 23)}${pid ? `${col('State', 16)}PID` : 'State'}`,
    ];
    for (const r of list) {
      const state = r.proto.startsWith('UDP') ? '' : r.state;
      lines.push(
        `  ${col(r.proto === 'TCPv6' ? 'TCP' : r.proto === 'UDPv6' ? 'UDP' : r.proto, 7)}${col(r.local, 23)}${col(r.foreign, 23)}${pid ? `${col(state, 16)}${pidOf(r.port)}` : state}`,
      );
    }
    io.stdout.write(lines.map(l => `${l}\r\n`).join(''));
    return 0;
  }
  const head = all ? 'Active Internet connections (servers and established)' : 'Active Internet connections (w/o servers)';
  const lines = [head, `Proto Recv-Q Send-Q ${'Local Address'.padEnd(23)} ${'Foreign Address'.padEnd(23)} State       `];
  for (const r of list) {
    const p = r.proto === 'TCP' ? 'tcp' : r.proto === 'TCPv6' ? 'tcp6' : r.proto === 'UDP' ? 'udp' : 'udp6';
    const foreign =
      r.foreign === '0.0.0.0:0' ? '0.0.0.0:*' : r.foreign === '[::]:0' || r.foreign === '*:*' ? (p.endsWith('6') ? ':::*' : '0.0.0.0:*') : r.foreign;
    const local = r.local.startsWith('[::]') ? `:::${r.port}` : r.local;
    const state = r.state === 'LISTENING' ? 'LISTEN' : r.state;
    lines.push(`${p.padEnd(5)} ${'0'.padStart(6)} ${'0'.padStart(6)} ${local.padEnd(23)} ${foreign.padEnd(23)} ${state.padEnd(12)}`);
  }
  io.stdout.write(lines.map(l => `${l}\n`).join(''));
  return 0;
}

function usage(ctx: ProgramCtx): number {
  if (ctx.host.os === 'windows') ctx.io.stdout.write(USAGE.map(l => `${l}\r\n`).join(''));
  else ctx.io.stderr.write('netstat: invalid option\nBusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: netstat [-ral] [-tuwx] [-en]\n');
  return 1;
}
