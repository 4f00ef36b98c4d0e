// ping: ICMP is answered by the twin's ping() (no real ICMP). Windows output per
// docs/windows-commands.md §4 (look for "TTL"; exit code unreliable, here 0 when any reply
// came back); Linux output in busybox style.

import type { ProgramCtx } from '../types.ts';
import { ABORTED_EXIT, isIPv4, sleep } from '../io.ts';
import { resolveName } from './net.ts';

export async function runPing(ctx: ProgramCtx): Promise<number> {
  return ctx.host.os === 'windows' ? windows(ctx) : linux(ctx);
}

async function windows(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const w = (s: string): boolean => io.stdout.write(s.replace(/\n/g, '\r\n'));
  let count = 4;
  let timeoutMs = 4000;
  let target: string | undefined;
  for (let i = 0; i < ctx.args.length; i++) {
    const a = ctx.args[i]!.toLowerCase();
    if (a === '-n' || a === '/n') count = Number(ctx.args[++i]);
    else if (a === '-w' || a === '/w') timeoutMs = Number(ctx.args[++i]);
    else if (a === '-t' || a === '/t') count = Number.POSITIVE_INFINITY;
    else if (a === '-4' || a === '/4') continue;
    else if (a === '-l' || a === '-i') i++;
    else target = ctx.args[i];
  }
  if (!target) {
    w('\nUsage: ping [-t] [-n count] [-w timeout] target_name\n');
    return 1;
  }
  const r = await resolveName(host, target, io.signal);
  if (!r.ok) {
    if (r.code === 'EABORTED') return ABORTED_EXIT;
    w(`Ping request could not find host ${target}. Please check the name and try again.\n`);
    return 1;
  }
  const ip = r.value[0]!;
  w(`\nPinging ${isIPv4(target) ? ip : `${target} [${ip}]`} with 32 bytes of data:\n`);
  let received = 0;
  let sent = 0;
  for (; sent < count;) {
    if (io.signal.aborted) return ABORTED_EXIT;
    sent++;
    const ok = await host.net.ping(host.endpoint, ip);
    if (ok) {
      received++;
      w(`Reply from ${ip}: bytes=32 time<1ms TTL=128\n`);
      if (sent < count && !(await sleep(1000, io.signal))) return ABORTED_EXIT;
    } else {
      if (!(await sleep(timeoutMs, io.signal))) return ABORTED_EXIT;
      w('Request timed out.\n');
    }
  }
  const lost = sent - received;
  w(`\nPing statistics for ${ip}:\n    Packets: Sent = ${sent}, Received = ${received}, Lost = ${lost} (${Math.round((lost / sent) * 100)}% loss),\n`);
  if (received > 0) w('Approximate round trip times in milli-seconds:\n    Minimum = 0ms, Maximum = 0ms, Average = 0ms\n');
  return received > 0 ? 0 : 1;
}

async function linux(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  let count = Number.POSITIVE_INFINITY;
  let waitSec = 10;
  let target: string | undefined;
  for (let i = 0; i < ctx.args.length; i++) {
    const a = ctx.args[i]!;
    if (a === '-c') count = Number(ctx.args[++i]);
    else if (a === '-W' || a === '-w') waitSec = Number(ctx.args[++i]);
    else if (/^-c\d+$/.test(a)) count = Number(a.slice(2));
    else if (a === '-q' || a === '-4') continue;
    else target = a;
  }
  if (!target) {
    io.stderr.write('ping: usage error: Destination address required\n');
    return 1;
  }
  const r = await resolveName(host, target, io.signal);
  if (!r.ok) {
    if (r.code === 'EABORTED') return ABORTED_EXIT;
    io.stderr.write(`ping: bad address '${target}'\n`);
    return 1;
  }
  const ip = r.value[0]!;
  io.stdout.write(`PING ${target} (${ip}): 56 data bytes\n`);
  let sent = 0;
  let received = 0;
  while (sent < count) {
    if (io.signal.aborted) break;
    const ok = await host.net.ping(host.endpoint, ip);
    if (ok) {
      received++;
      io.stdout.write(`64 bytes from ${ip}: seq=${sent} ttl=64 time=0.100 ms\n`);
    }
    sent++;
    if (sent < count && !(await sleep(ok ? 1000 : waitSec * 1000, io.signal))) break;
    if (!ok && sent >= count) await sleep(waitSec * 1000, io.signal);
  }
  io.stdout.write(
    `\n--- ${target} ping statistics ---\n${sent} packets transmitted, ${received} packets received, ${Math.round(((sent - received) / Math.max(1, sent)) * 100)}% packet loss\n`,
  );
  if (received > 0) io.stdout.write('round-trip min/avg/max = 0.100/0.100/0.100 ms\n');
  return received > 0 ? 0 : 1;
}
