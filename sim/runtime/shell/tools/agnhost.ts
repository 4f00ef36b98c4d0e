// agnhost subcommands (docs/windows-commands.md §6). Go program: output ends in "\n" only.
// connect: exit 1 with TIMEOUT / REFUSED / DNS: / OTHER:, including the Windows
// quirk where a refused TCP connection is reported as OTHER (syscall.ECONNREFUSED is
// an invented constant on Windows). Servers are delegated to host.startServer.

import type { ProgramCtx } from '../types.ts';
import { ABORTED_EXIT, untilAborted } from '../io.ts';
import { connectTo } from './net.ts';
import { lookupWithSearch } from './dnsnames.ts';

/** Go time.ParseDuration for the forms flags use: "3s", "500ms", "1m", "1.5s", "0". */
export function parseGoDuration(s: string): number | undefined {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|us|µs|ns|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const n = Number(m[1]);
    const unit = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2]!] ?? 1;
    total += n * unit;
    consumed += m[0].length;
  }
  return consumed === s.length && consumed > 0 ? total : undefined;
}

function flags(args: string[]): { pos: string[]; opts: Record<string, string> } {
  const pos: string[] = [];
  const opts: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const m = /^--?([\w-]+)(?:=(.*))?$/.exec(a);
    if (!m) {
      pos.push(a);
      continue;
    }
    if (m[2] !== undefined) opts[m[1]!] = m[2];
    else if (args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) opts[m[1]!] = args[++i]!;
    else opts[m[1]!] = 'true';
  }
  return { pos, opts };
}

export async function runAgnhost(ctx: ProgramCtx): Promise<number> {
  const { io } = ctx;
  const [sub, ...rest] = ctx.args;
  switch (sub) {
    case 'connect':
      return connect(ctx, rest);
    case 'dns-server-list':
      io.stdout.write(`${ctx.host.dns.nameservers.join(',')}\n`);
      return 0;
    case 'dns-suffix': {
      const all = [...ctx.host.dns.searches, ...ctx.host.interfaces.map(i => i.dnsSuffix ?? '').filter(Boolean)];
      io.stdout.write(`${[...new Set(all)].join(',')}\n`);
      return 0;
    }
    case 'etc-hosts': {
      const path = ctx.host.os === 'windows' ? 'C:/Windows/System32/drivers/etc/hosts' : '/etc/hosts';
      try {
        io.stdout.write(`${ctx.host.fs.read(path).toString('utf8')}\n`);
        return 0;
      } catch {
        io.stderr.write(`Error: open ${path}: The system cannot find the file specified.\n`);
        return 1;
      }
    }
    case 'pause': {
      io.stdout.write('Paused\n');
      await untilAborted(io.signal);
      // SIGINT exits 1, SIGTERM 2 (§6); an abort without a reason is taken as SIGTERM.
      return io.signal.reason === 'SIGINT' ? 1 : 2;
    }
    case 'netexec':
    case 'test-webserver':
    case 'porter':
    case 'serve-hostname':
    case 'liveness':
    case 'grpc-health-checking':
      return serve(ctx, [sub, ...rest]);
    case undefined:
      io.stdout.write('agnhost: a tool for testing Kubernetes clusters\n\nUsage:\n  agnhost [command]\n');
      return 0;
    default:
      io.stderr.write(`Error: unknown command "${sub}" for "agnhost"\nRun 'agnhost --help' for usage.\n`);
      return 1;
  }
}

function goLog(msg: string): string {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${msg}\n`;
}

async function serve(ctx: ProgramCtx, argv: string[]): Promise<number> {
  const { io, host } = ctx;
  if (host.startServer) {
    try {
      await host.startServer(['agnhost', ...argv]);
    } catch (e) {
      io.stderr.write(goLog(`Error: ${e instanceof Error ? e.message : String(e)}`));
      return 1;
    }
  }
  if (argv[0] === 'netexec') {
    const { opts } = flags(argv.slice(1));
    io.stderr.write(goLog(`Started HTTP server on port ${opts['http-port'] ?? '8080'}`));
    if ((opts['udp-port'] ?? '8081') !== '-1') io.stderr.write(goLog(`Started UDP server on port  ${opts['udp-port'] ?? '8081'}`));
  }
  await untilAborted(io.signal);
  return ABORTED_EXIT;
}

async function connect(ctx: ProgramCtx, args: string[]): Promise<number> {
  const { io, host } = ctx;
  const { pos, opts } = flags(args);
  const dest = pos[0];
  const win = host.os === 'windows';
  if (!dest) {
    io.stderr.write('Error: accepts 1 arg(s), received 0\n');
    return 1;
  }
  const protocol = opts['protocol'] ?? 'tcp';
  const timeoutMs = parseGoDuration(opts['timeout'] ?? '0');
  if (timeoutMs === undefined) {
    io.stderr.write(`Error: invalid argument "${opts['timeout']}" for "--timeout" flag\n`);
    return 1;
  }
  const i = dest.lastIndexOf(':');
  const name = i > 0 ? dest.slice(0, i) : dest;
  const port = Number(i > 0 ? dest.slice(i + 1) : NaN);
  if (i < 0 || !Number.isInteger(port)) {
    io.stderr.write(`DNS: address ${dest}: missing port in address\n`);
    return 1;
  }
  if (protocol !== 'tcp') {
    io.stderr.write(`UNKNOWN: ${protocol} connect is not simulated\n`);
    return 1;
  }
  const resolved = await lookupWithSearch(host, name, io.signal);
  if (!resolved.ok) {
    if (resolved.code === 'EABORTED') return ABORTED_EXIT;
    const server = host.dns.nameservers[0] ?? '127.0.0.1';
    io.stderr.write(win ? `DNS: lookup ${name}: no such host\n` : `DNS: lookup ${name} on ${server}:53: no such host\n`);
    return 1;
  }
  const addr = resolved.addresses[0]!;
  // --timeout=0 means the OS connect timeout (about 21 s on Windows, 127 s on Linux).
  const budget = timeoutMs > 0 ? timeoutMs : win ? 21000 : 127000;
  const c = await connectTo(host, addr, port, budget, io.signal);
  if (c.ok) {
    c.value.destroy();
    return 0;
  }
  if (c.code === 'EABORTED') return ABORTED_EXIT;
  const at = `dial tcp ${addr}:${port}`;
  if (c.code === 'ETIMEDOUT') {
    // Only Go's own deadline is a Timeout(); Windows' WSAETIMEDOUT is not (§6 reasoning).
    if (timeoutMs > 0 || !win) {
      io.stderr.write('TIMEOUT\n');
      return 1;
    }
    io.stderr.write(
      `OTHER: ${at}: connectex: A connection attempt failed because the connected party did not properly respond after a period of time, or established connection failed because connected host has failed to respond.\n`,
    );
    return 1;
  }
  if (c.code === 'ECONNREFUSED') {
    if (!win) {
      io.stderr.write('REFUSED\n');
      return 1;
    }
    io.stderr.write(`OTHER: ${at}: connectex: No connection could be made because the target machine actively refused it.\n`);
    return 1;
  }
  io.stderr.write(win ? `OTHER: ${at}: connectex: A socket operation was attempted to an unreachable host.\n` : `OTHER: ${at}: connect: no route to host\n`);
  return 1;
}
