// agnhost netexec (k8s test/images/agnhost/netexec): the e2e network probe server.
// HTTP: /hostname, /clientip (the real peer ip:port), /echo?msg=, /healthz,
// /dial?request=&protocol=http|udp&host=&port=&tries= (the e2e DialFromTestContainer probe),
// /shell?cmd= and /exit?code= when the runtime supplies them. UDP: "hostname",
// "echo <msg>", "clientip" as datagrams, answered in kind.

import type { RemoteInfo } from 'node:dgram';
import { httpHandler, type SocketHandler } from './http.ts';

export interface NetexecContext {
  podName: string;
  /** Runs /shell?cmd= in the container; output and exit code. */
  shell?(cmd: string): Promise<{ output: string; exitCode: number }>;
  /** /exit?code=: the container exits with that code. */
  exit?(code: number): void;
  /** /dial: one request from this pod over `protocol`; the answer, or a rejection with Go's error text. */
  dial?(protocol: 'http' | 'udp', request: string, host: string, port: number): Promise<string>;
}

/**
 * agnhost's dialHandler: `tries` requests, then {"errors":[...],"responses":[...]} (keys only
 * when non-empty, sorted as Go's json.Marshal writes a map), 200 either way.
 */
async function dialAll(ctx: NetexecContext, url: URL): Promise<{ status: number; body: string }> {
  const q = url.searchParams;
  const host = q.get('host') ?? '';
  const port = Number(q.get('port') ?? '');
  const protocol = (q.get('protocol') ?? 'http').toLowerCase();
  const tries = Number(q.get('tries') ?? '1');
  if (!host || !Number.isInteger(port) || port <= 0) return { status: 400, body: 'host and port are required\n' };
  if (protocol !== 'http' && protocol !== 'udp') return { status: 400, body: `unsupported protocol. ${protocol}\n` };
  if (!ctx.dial) return { status: 501, body: 'dial not supported' };
  const responses: string[] = [];
  const errors: string[] = [];
  for (let i = 0; i < Math.max(1, tries); i++) {
    try {
      responses.push(await ctx.dial(protocol, q.get('request') ?? '', host, port));
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  const out: Record<string, string[]> = {};
  if (errors.length) out.errors = errors;
  if (responses.length) out.responses = responses;
  return { status: 200, body: JSON.stringify(out) };
}

export function netexecServer(ctx: NetexecContext): SocketHandler {
  return httpHandler((req, res) => {
    const url = new URL(req.url ?? '/', 'http://netexec');
    const text = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(body);
    };
    switch (url.pathname) {
      case '/':
      case '/hostname':
        return text(200, ctx.podName);
      case '/clientip':
        return text(200, `${req.socket.remoteAddress}:${req.socket.remotePort}`);
      case '/echo':
        return text(200, url.searchParams.get('msg') ?? '');
      case '/healthz':
        return text(200, 'ok');
      case '/dial':
        dialAll(ctx, url).then(
          r => text(r.status, r.body),
          e => text(500, String(e)),
        );
        return;
      case '/exit': {
        const code = Number(url.searchParams.get('code') ?? '0');
        if (!ctx.exit) return text(501, 'exit not supported');
        text(200, '');
        return void setImmediate(() => ctx.exit?.(code));
      }
      case '/shell': {
        const cmd = url.searchParams.get('shellCommand') ?? url.searchParams.get('cmd') ?? '';
        if (!ctx.shell) return text(501, 'shell not supported');
        ctx.shell(cmd).then(
          r => {
            const body = JSON.stringify(r.exitCode === 0 ? { output: r.output } : { output: r.output, error: `exit status ${r.exitCode}` });
            res.writeHead(r.exitCode === 0 ? 200 : 417, { 'Content-Type': 'application/json' });
            res.end(body);
          },
          e => text(500, String(e)),
        );
        return;
      }
      default:
        return text(404, '404 page not found\n');
    }
  });
}

/** The UDP side of netexec: the reply to one datagram, or undefined for none. */
export function netexecUdpReply(ctx: NetexecContext, msg: Buffer, rinfo: RemoteInfo): Buffer | undefined {
  const s = msg.toString().trim();
  if (s === 'hostname') return Buffer.from(ctx.podName);
  if (s === 'clientip') return Buffer.from(`${rinfo.address}:${rinfo.port}`);
  if (s.startsWith('echo ')) return Buffer.from(s.slice(5));
  return undefined;
}
