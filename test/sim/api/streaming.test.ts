// pods/exec and pods/portforward over websockets (sim/api/streaming.ts) with real
// clients: @kubernetes/client-node's Exec and PortForward, and raw ws for the framing.

import { expect } from 'chai';
import { createServer as createTcpServer, connect, type AddressInfo, type Server as TcpServer } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { Exec, KubeConfig, PortForward, type V1Status } from '@kubernetes/client-node';
import WebSocket from 'ws';
import { StoreError } from '../../../sim/api/store.ts';
import type { ExecRequest, SubresourceHandlers } from '../../../sim/api/runtimeContract.ts';
import { deadline, storeWithPod, streamServer, type StreamServer } from '../../support/loopback.ts';

class Sink extends Writable {
  text = '';
  _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.text += chunk.toString();
    this.emit('text');
    cb();
  }
  /** Resolves once the collected text satisfies ok (checked on every write). */
  until(ok: (t: string) => boolean, what: string): Promise<void> {
    return deadline(
      new Promise<void>(resolve => {
        const check = () => {
          if (ok(this.text)) {
            this.off('text', check);
            resolve();
          }
        };
        this.on('text', check);
        check();
      }),
      5000,
      what,
    );
  }
}

function kubeconfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

describe('sim streaming: exec and port-forward over websockets', () => {
  let srv: StreamServer;
  let echo: TcpServer;
  let echoPort: number;
  const seen: ExecRequest[] = [];

  const handlers: SubresourceHandlers = {
    async exec(req, streams) {
      seen.push(req);
      const [cmd, ...args] = req.command;
      if (cmd === 'boom') throw new StoreError(404, 'NotFound', 'container not found ("c")');
      if (cmd === 'cat' && streams.stdin) {
        for await (const chunk of streams.stdin) streams.stdout.write(chunk as Buffer);
        return { exitCode: 0 };
      }
      streams.stdout.write(`${req.command.join(' ')}\n`);
      if (cmd === 'warn') streams.stderr.write('to stderr\n');
      return { exitCode: cmd === 'cmd' && args[1] === 'exit' ? Number(args[2]) : 0 };
    },
    async log(req, out) {
      out.write(`attached to ${req.container}\n`);
    },
    async portForward(req) {
      if (req.port !== 8080) throw new Error(`dial tcp 127.0.0.1:${req.port}: connect: connection refused`);
      const s = connect(echoPort, '127.0.0.1');
      await new Promise<void>((resolve, reject) => {
        s.once('connect', resolve);
        s.once('error', reject);
      });
      return s;
    },
    async nodeProxy() {
      return { status: 404, contentType: 'text/plain', body: '' };
    },
  };

  before(async () => {
    echo = createTcpServer(s => s.pipe(s));
    await new Promise<void>(resolve => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as AddressInfo).port;
    srv = await streamServer(storeWithPod({ name: 'iis', containers: ['iis'] }), handlers);
  });
  after(async () => {
    await srv.close();
    await new Promise<void>(resolve => echo.close(() => resolve()));
  });

  /** Runs an exec with client-node and waits for the socket to close and the status to arrive. */
  async function clientExec(command: string[], stdin: PassThrough | null = null) {
    const out = new Sink(),
      err = new Sink();
    let status: V1Status | undefined;
    const gotStatus = new Promise<void>(resolve => {
      const ws = new Exec(kubeconfig(srv.url)).exec('ns', 'iis', 'iis', command, out, err, stdin, false, s => {
        status = s;
        resolve();
      });
      void ws.then(w => {
        if (stdin) stdin.end('hello over stdin');
        return w;
      });
    });
    await deadline(gotStatus, 5000, 'the exec status');
    return { out: out.text, err: err.text, status: status! };
  }

  it('runs a command and reports Success (client-node Exec, v5)', async () => {
    const r = await clientExec(['cmd', '/c', 'echo', 'hi']);
    expect(r.out).to.equal('cmd /c echo hi\n');
    expect(r.status).to.deep.equal({ metadata: {}, status: 'Success' });
    expect(seen.at(-1)).to.include({ namespace: 'ns', pod: 'iis', container: 'iis', stdin: false, tty: false });
  });

  it('reports a non-zero exit code as the kubelet does', async () => {
    const r = await clientExec(['cmd', '/c', 'exit', '3']);
    expect(r.status).to.deep.equal({
      metadata: {},
      status: 'Failure',
      message: 'command terminated with non-zero exit code: error executing command [cmd /c exit 3], exit code 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
  });

  it('carries stdin to the command and ends it on the v5 close frame', async () => {
    const r = await clientExec(['cat'], new PassThrough());
    expect(r.out).to.equal('hello over stdin');
    expect(r.status.status).to.equal('Success');
  });

  it('keeps stderr apart from stdout', async () => {
    const r = await clientExec(['warn']);
    expect(r.out).to.equal('warn\n');
    expect(r.err).to.equal('to stderr\n');
  });

  it('sends a runtime error as a Failure status', async () => {
    const r = await clientExec(['boom']);
    expect(r.status).to.include({ status: 'Failure', message: 'container not found ("c")', reason: 'NotFound' });
  });

  it('answers v4 clients with the status on channel 3 and a normal close', async () => {
    const url = `${srv.url.replace('http', 'ws')}/api/v1/namespaces/ns/pods/iis/exec?command=cmd&command=%2Fc&command=exit&command=7&stdout=true`;
    const ws = new WebSocket(url, ['v4.channel.k8s.io']);
    const frames: Buffer[] = [];
    ws.on('message', (d: Buffer) => frames.push(d));
    const code = await deadline(new Promise<number>(resolve => ws.on('close', c => resolve(c))), 5000, 'the close');
    expect(ws.protocol).to.equal('v4.channel.k8s.io');
    expect(code).to.equal(1000);
    const status = frames.find(f => f[0] === 3)!;
    expect(JSON.parse(status.subarray(1).toString())).to.include({ status: 'Failure', reason: 'NonZeroExitCode' });
    expect(
      frames
        .filter(f => f[0] === 1)
        .map(f => f.subarray(1).toString())
        .join(''),
    ).to.equal('cmd /c exit 7\n');
  });

  it('attaches to the container output', async () => {
    const url = `${srv.url.replace('http', 'ws')}/api/v1/namespaces/ns/pods/iis/attach?stdout=true&container=iis`;
    const ws = new WebSocket(url, ['v5.channel.k8s.io']);
    const frames: Buffer[] = [];
    ws.on('message', (d: Buffer) => frames.push(d));
    await deadline(new Promise<void>(resolve => ws.on('close', () => resolve())), 5000, 'the close');
    expect(
      frames
        .filter(f => f[0] === 1)
        .map(f => f.subarray(1).toString())
        .join(''),
    ).to.equal('attached to iis\n');
    expect(
      JSON.parse(
        frames
          .find(f => f[0] === 3)!
          .subarray(1)
          .toString(),
      ),
    ).to.deep.equal({ metadata: {}, status: 'Success' });
  });

  it('rejects a missing pod or container with an HTTP Status before upgrading', async () => {
    const status = (path: string) =>
      deadline(
        new Promise<{ code: number; body: { reason: string; message: string } }>((resolve, reject) => {
          const ws = new WebSocket(`${srv.url.replace('http', 'ws')}${path}`, ['v5.channel.k8s.io']);
          ws.on('unexpected-response', (_req, res) => {
            let body = '';
            res.on('data', (c: Buffer) => {
              body += c;
            });
            res.on('end', () => resolve({ code: res.statusCode ?? 0, body: JSON.parse(body) }));
          });
          ws.on('open', () => reject(new Error('upgraded')));
        }),
        5000,
        'the HTTP error',
      );
    const missing = await status('/api/v1/namespaces/ns/pods/nope/exec?command=x&stdout=true');
    expect(missing.code).to.equal(404);
    expect(missing.body).to.include({ reason: 'NotFound', message: 'pods "nope" not found' });
    const badContainer = await status('/api/v1/namespaces/ns/pods/iis/exec?command=x&stdout=true&container=web');
    expect(badContainer.code).to.equal(400);
    expect(badContainer.body.message).to.equal('container web is not valid for pod iis');
  });

  it('forwards a port for client-node PortForward', async () => {
    const pf = new PortForward(kubeconfig(srv.url));
    const out = new Sink(),
      err = new Sink();
    const input = new PassThrough();
    const ws = (await deadline(pf.portForward('ns', 'iis', [8080], out, err, input), 5000, 'the port-forward socket')) as WebSocket;
    input.write('ping through the tunnel');
    await out.until(t => t === 'ping through the tunnel', 'the echo');
    expect(err.text).to.equal('');
    const closed = new Promise<void>(resolve => ws.on('close', () => resolve()));
    input.end();
    await deadline(closed, 5000, 'the close');
  });

  it('reports a refused port on the error channel', async () => {
    const pf = new PortForward(kubeconfig(srv.url), false);
    const out = new Sink();
    const err = new Sink();
    await pf.portForward('ns', 'iis', [9999], out, err, new PassThrough());
    await err.until(t => t.includes('connection refused'), 'the error text');
    expect(err.text).to.match(/^an error occurred forwarding 9999 -> 9999: .*connection refused/);
  });
});

describe('sim streaming: checks before the upgrade', () => {
  const noop: SubresourceHandlers = {
    async exec() {
      return { exitCode: 0 };
    },
    async log() {
      /* unused */
    },
    async portForward() {
      throw new Error('unused');
    },
    async nodeProxy() {
      return { status: 404, contentType: 'text/plain', body: '' };
    },
  };

  /** The HTTP status a websocket handshake is refused with. */
  const refusal = (url: string, protocols: string[]) =>
    deadline(
      new Promise<{ code: number; message: string }>((resolve, reject) => {
        const ws = new WebSocket(url, protocols);
        ws.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c;
          });
          res.on('end', () => resolve({ code: res.statusCode ?? 0, message: (JSON.parse(body) as { message: string }).message }));
        });
        ws.on('open', () => reject(new Error('upgraded')));
      }),
      5000,
      'the refusal',
    );

  it('refuses exec into a container the kubelet reports as not running, and into a completed pod', async () => {
    const store = storeWithPod({ name: 'p', containers: ['c'] });
    store.mutate('pods', 'ns', 'p', o => {
      o.status = { phase: 'Pending', containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ContainerCreating' } } }] };
    });
    const srv = await streamServer(store, noop);
    try {
      const base = `${srv.url.replace('http', 'ws')}/api/v1/namespaces/ns/pods/p/exec?command=cmd&stdout=true`;
      expect(await refusal(base, ['v5.channel.k8s.io'])).to.deep.equal({ code: 400, message: 'unable to upgrade connection: container not found ("c")' });
      store.mutate('pods', 'ns', 'p', o => {
        o.status = { phase: 'Succeeded' };
      });
      expect(await refusal(base, ['v5.channel.k8s.io'])).to.deep.equal({
        code: 400,
        message: 'cannot exec into a container in a completed pod; current phase is Succeeded',
      });
    } finally {
      await srv.close();
    }
  });

  it('refuses a handshake offering no protocol it speaks, so clients can fall back', async () => {
    const store = storeWithPod({ name: 'p', containers: ['c'] });
    const srv = await streamServer(store, noop);
    try {
      const code = await deadline(
        new Promise<number>((resolve, reject) => {
          const ws = new WebSocket(
            `${srv.url.replace('http', 'ws')}/api/v1/namespaces/ns/pods/p/portforward?ports=80`,
            ['v5.channel.k8s.io'] /* port-forward speaks v4 framing only */,
          );
          ws.on('unexpected-response', (_req, res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          ws.on('open', () => reject(new Error('upgraded')));
        }),
        5000,
        'the refusal',
      );
      expect(code).to.equal(403);
    } finally {
      await srv.close();
    }
  });
});
