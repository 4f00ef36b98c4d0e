// System.Net.Sockets.UdpClient as a PowerShell UDP probe uses it:
//   $u = New-Object System.Net.Sockets.UdpClient; $u.Connect(host, port)
//   $null = $u.Send($bytes, $bytes.Length); $t = $u.ReceiveAsync(); $t.Wait(ms); $t.Result.Buffer
// and [System.Text.Encoding]::ASCII / UTF8 GetBytes and GetString for the payload. The
// datagram goes through the twin (path policy, NetworkPolicy); a dropped one is silence,
// so Task.Wait returns false at its timeout, as on Windows.

import { PSObject, enumerate, toNum, toStr } from './values.ts';
import type { PSValue } from './values.ts';
import { MethodException } from './errors.ts';
import { resolveName } from '../tools/net.ts';
import type { ShellHost } from '../types.ts';
import { sleep } from '../io.ts';

/** How long a sent datagram's reply is awaited (beyond any Task.Wait a script gives it). */
const REPLY_MS = 30_000;

/** [System.Text.Encoding]::ASCII (or UTF8): bytes as PowerShell's byte[] (an array of numbers). */
export function textEncoding(name: 'ASCII' | 'UTF8'): PSObject {
  const enc = new PSObject(name === 'ASCII' ? 'ASCIIEncoding' : 'UTF8Encoding', { EncodingName: name === 'ASCII' ? 'US-ASCII' : 'Unicode (UTF-8)' });
  const codec = name === 'ASCII' ? 'latin1' : 'utf8';
  enc.methods = {
    getbytes: async args => [...Buffer.from(toStr(args[0] ?? null), codec)].map(b => (name === 'ASCII' && b > 127 ? 63 : b)),
    getstring: async args => Buffer.from(enumerate(args[0] ?? null).map(v => toNum(v) & 0xff)).toString(codec),
  };
  return enc;
}

type Reply = { ok: true; bytes: number[] } | { ok: false };

export function udpClient(host: ShellHost, signal: AbortSignal): PSObject {
  const client = new PSObject('UdpClient', { Available: 0, Active: false, EnableBroadcast: false, Ttl: 128 });
  let remote: { address: string; port: number } | undefined;
  let pending: Promise<Reply> | undefined;
  client.methods = {
    connect: async args => {
      const name = toStr(args[0] ?? null);
      const r = await resolveName(host, name, signal);
      if (!r.ok) throw new MethodException('No such host is known', 'SocketException');
      remote = { address: r.value[0]!, port: toNum(args[1] ?? 0) };
      client.set('Active', true);
      return null;
    },
    send: async args => {
      const bytes = enumerate(args[0] ?? null).map(v => toNum(v) & 0xff);
      const count = args.length > 1 ? toNum(args[1] ?? 0) : bytes.length;
      const to = args.length >= 4 ? { address: toStr(args[2] ?? null), port: toNum(args[3] ?? 0) } : remote;
      if (!to) throw new MethodException('The operation is not allowed on non-connected sockets.', 'InvalidOperationException');
      const exchange = host.net.exchangeUdp;
      pending = exchange
        ? exchange
            .call(host.net, { from: host.endpoint, host: to.address, port: to.port, payload: Buffer.from(bytes.slice(0, count)), timeoutMs: REPLY_MS })
            .then(
              (r): Reply => ({ ok: true, bytes: [...r.reply] }),
              (): Reply => ({ ok: false }),
            )
        : Promise.resolve<Reply>({ ok: false });
      return count;
    },
    receiveasync: async () => {
      const task = new PSObject('Task', { Id: 1, Status: 'WaitingForActivation', IsCompleted: false, IsFaulted: false, IsCanceled: false, Result: null });
      const done: Promise<Reply> = pending ?? new Promise<Reply>(() => {});
      void done.then(r => {
        if (!r.ok) return;
        task.set('IsCompleted', true);
        task.set('Status', 'RanToCompletion');
        task.set('Result', new PSObject('UdpReceiveResult', { Buffer: r.bytes, RemoteEndPoint: remote ? `${remote.address}:${remote.port}` : null }));
      });
      task.methods = {
        wait: async (w: PSValue[]) => {
          const ms = w.length ? toNum(w[0] ?? null) : Number.MAX_SAFE_INTEGER;
          const timer = sleep(ms, signal).then((): Reply => ({ ok: false }));
          const r = await Promise.race([done.then(x => (x.ok ? x : new Promise<Reply>(() => {}))), timer]);
          return r.ok;
        },
      };
      return task;
    },
    close: async () => {
      client.set('Active', false);
      return null;
    },
    dispose: async () => {
      client.set('Active', false);
      return null;
    },
  };
  return client;
}
