// System.Net.Sockets.TcpClient as PowerShell probes use it:
//   $c = New-Object Net.Sockets.TcpClient; $t = $c.ConnectAsync(host, port); $t.Wait(ms); $t.IsFaulted
//   (New-Object Net.Sockets.TcpClient).Connect(host, port)
// The connection goes through the twin; messages are .NET's SocketException texts.

import { PSObject, toNum, toStr } from './values.ts';
import type { PSValue } from './values.ts';
import { MethodException } from './errors.ts';
import { connectTo, resolveName } from '../tools/net.ts';
import type { ShellHost } from '../types.ts';
import { sleep } from '../io.ts';

/** Windows' own TCP connect timeout (about 21 s). */
const WINDOWS_CONNECT_MS = 21000;

type Outcome = { ok: true } | { ok: false; message: string; code: string };

async function attempt(host: ShellHost, name: string, port: number, signal: AbortSignal): Promise<Outcome> {
  const r = await resolveName(host, name, signal);
  if (!r.ok) return { ok: false, message: 'No such host is known', code: 'HostNotFound' };
  const ip = r.value[0]!;
  const c = await connectTo(host, ip, port, WINDOWS_CONNECT_MS, signal);
  if (c.ok) {
    c.value.destroy();
    return { ok: true };
  }
  switch (c.code) {
    case 'ETIMEDOUT':
      return {
        ok: false,
        code: 'TimedOut',
        message: `A connection attempt failed because the connected party did not properly respond after a period of time, or established connection failed because connected host has failed to respond ${ip}:${port}`,
      };
    case 'EHOSTUNREACH':
      return { ok: false, code: 'HostUnreachable', message: `A socket operation was attempted to an unreachable host ${ip}:${port}` };
    default:
      return { ok: false, code: 'ConnectionRefused', message: `No connection could be made because the target machine actively refused it ${ip}:${port}` };
  }
}

function aggregate(o: Extract<Outcome, { ok: false }>): PSObject {
  const inner = new PSObject('SocketException', { Message: o.message, SocketErrorCode: o.code }, o.message);
  return new PSObject('AggregateException', { Message: 'One or more errors occurred.', InnerException: inner }, 'One or more errors occurred.');
}

export function tcpClient(host: ShellHost, signal: AbortSignal): PSObject {
  const client = new PSObject('TcpClient', { Connected: false, Available: 0, ReceiveTimeout: 0, SendTimeout: 0 });
  const settle = (o: Outcome): void => {
    if (o.ok) client.set('Connected', true);
  };
  client.methods = {
    connectasync: async (args: PSValue[]) => {
      const task = new PSObject('Task', { Id: 1, Status: 'WaitingForActivation', IsCompleted: false, IsFaulted: false, IsCanceled: false, Exception: null });
      const done = attempt(host, toStr(args[0] ?? null), toNum(args[1] ?? 0), signal).then(o => {
        settle(o);
        task.set('IsCompleted', true);
        task.set('Status', o.ok ? 'RanToCompletion' : 'Faulted');
        if (!o.ok) {
          task.set('IsFaulted', true);
          task.set('Exception', aggregate(o));
        }
        return o;
      });
      task.methods = {
        wait: async (w: PSValue[]) => {
          const ms = w.length ? toNum(w[0] ?? null) : Number.MAX_SAFE_INTEGER;
          const timer = sleep(ms, signal).then(() => undefined);
          const o = await Promise.race([done, timer]);
          if (o === undefined) return false;
          // Task.Wait rethrows a fault as AggregateException.
          if (!o.ok) throw new MethodException('One or more errors occurred.', 'AggregateException');
          return true;
        },
      };
      return task;
    },
    connect: async (args: PSValue[]) => {
      const o = await attempt(host, toStr(args[0] ?? null), toNum(args[1] ?? 0), signal);
      settle(o);
      if (!o.ok) throw new MethodException(o.message, 'SocketException');
      return null;
    },
    close: async () => {
      client.set('Connected', false);
      return null;
    },
    dispose: async () => {
      client.set('Connected', false);
      return null;
    },
  };
  return client;
}
