// Every call has a deadline and Ctrl-C cancels it: against a server that
// answers /version and stalls everything else, `run --timeout`, a single Ctrl-C and `cleanup`
// each end within seconds instead of hanging for minutes.

import { expect } from 'chai';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { startWincheck, tempDir } from '../../support/cli.ts';

describe('against a server that answers /version and stalls the rest', function () {
  this.timeout(60_000);
  let server: http.Server;
  let kubeconfig: string;
  const sockets = new Set<Socket>();
  let stalled = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/version') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ major: '1', minor: '33', gitVersion: 'v1.33.1' }));
        return;
      }
      stalled++; // never answered
    });
    server.on('connection', s => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    kubeconfig = join(tempDir(), 'kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{ name: stall, cluster: { server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: abc } }]
contexts: [{ name: stall, context: { cluster: stall, user: u } }]
current-context: stall
`,
    );
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await new Promise(r => server.close(r));
  });

  /** With interrupt: SIGINT once the command is waiting on the server (its handlers are in place). */
  async function timed(args: string[], interrupt = false) {
    const p = startWincheck(args);
    let signalled = 0;
    // Timed from the first request that stalls (the command is up: process start-up is not its doing).
    let firstStall = 0;
    const before = stalled;
    const poll = setInterval(() => {
      if (stalled === before || firstStall) return;
      firstStall = Date.now();
      if (interrupt) {
        signalled = Date.now();
        p.kill('SIGINT');
      }
    }, 20);
    void p.finally(() => clearInterval(poll));
    const r = await p;
    return {
      code: r.exitCode,
      out: String(r.all),
      ms: firstStall ? Date.now() - firstStall : Infinity,
      afterSignal: signalled ? Date.now() - signalled : undefined,
    };
  }

  it('run --timeout 3s ends within seconds of its deadline', async () => {
    const r = await timed(['run', '--kubeconfig', kubeconfig, '--report-dir', tempDir(), '--timeout', '3s', '--feature', 'sched.os-selector']);
    expect(r.code, r.out).to.equal(1);
    expect(r.out).to.match(/Timed out before any check ran/);
    expect(r.ms, r.out).to.be.below(8_000);
    expect(stalled).to.be.above(0);
  });

  it('a single Ctrl-C ends the run within seconds (exit 130)', async () => {
    const r = await timed(['run', '--kubeconfig', kubeconfig, '--report-dir', tempDir(), '--feature', 'sched.os-selector'], true);
    expect(r.code, r.out).to.equal(130);
    expect(r.afterSignal!, r.out).to.be.below(3_000);
  });

  it('cleanup gives up within its request deadline, exit 1 naming the stall; Ctrl-C ends it at once', async () => {
    const r = await timed(['cleanup', '--kubeconfig', kubeconfig]);
    expect(r.code, r.out).to.equal(1);
    expect(r.out).to.match(/could not list namespaces: GET \/api\/v1\/namespaces: no answer from the API server within 10s/);
    expect(r.ms, r.out).to.be.below(14_000);
    const c = await timed(['cleanup', '--kubeconfig', kubeconfig], true);
    expect(c.code, c.out).to.equal(1);
    expect(c.afterSignal!, c.out).to.be.below(2_000);
  });
});
