// Real kubectl binaries (clients we did not write) against a `wincheck sim` process,
// with nothing but the kubeconfig it wrote: the checks of the issue "Simulated mixed
// cluster, part 1". Skips, with a message, where a kubectl binary is absent.

import { expect } from 'chai';
import { join } from 'node:path';
import { connect } from 'node:net';
import { execa } from 'execa';
import { kubectl, kubectlBinary } from '../support/kubectl.ts';
import { startSimProcess, type SimProcess } from '../support/simProcess.ts';

const MANIFESTS = join(import.meta.dirname, '..', 'data', 'kubectl-manifests');
const SEED_MANIFESTS = ['iis-pod', 'secret-pod', 'configmap-pod', 'hostpath-volume-pod', 'emptydir-pod', 'daemonset', 'deploy-resource'];
const SEED_PODS = ['iis', 'my-secret-pod', 'configmap-pod', 'hostpath-volume-pod', 'my-empty-dir-pod'];

/** Old kubectl (SPDY exec) against apply/get; new kubectl (websocket exec) for everything. */
const VERSIONS = ['1.27', '1.33'];

describe('sim: real kubectl clients', function () {
  this.timeout(300_000);
  let sim: SimProcess;

  before(async function () {
    if (VERSIONS.every(v => !kubectlBinary(v))) this.skip();
    sim = await startSimProcess();
  });

  after(async function () {
    if (!sim) return;
    const server = new URL(/server: (\S+)/.exec(await import('node:fs').then(fs => fs.readFileSync(sim.kubeconfig, 'utf8')))![1]);
    const code = await sim.stop('SIGTERM');
    expect(code, `wincheck sim exit code; output:\n${sim.output()}`).to.equal(0);
    // No listener left behind: the API port refuses connections.
    const refused = await new Promise<boolean>(res => {
      const s = connect(Number(server.port), server.hostname);
      s.on('connect', () => {
        s.destroy();
        res(false);
      });
      s.on('error', () => res(true));
    });
    expect(refused, `${server.host} still accepts connections after the sim stopped`).to.equal(true);
  });

  for (const version of VERSIONS) {
    describe(`kubectl ${version}`, function () {
      const ns = `seeds-${version.replace('.', '-')}`;
      let bin: string;
      const k = (args: string[], timeoutMs?: number) => kubectl(bin, sim.kubeconfig, args, { timeoutMs });

      before(function () {
        const b = kubectlBinary(version);
        if (!b) {
          console.log(`    (kubectl.${version} is not on this machine: skipped)`);
          this.skip();
        }
        bin = b!;
      });

      it("lists nodes with -o wide showing the Windows nodes' OS image and kernel", async () => {
        const r = await k(['get', 'nodes', '-o', 'wide']);
        expect(r.exitCode, r.stderr).to.equal(0);
        const header = r.stdout.split('\n')[0];
        expect(header).to.match(/OS-IMAGE\s+KERNEL-VERSION\s+CONTAINER-RUNTIME/);
        const windows = r.stdout.split('\n').filter(l => l.includes('Windows Server'));
        expect(windows, r.stdout).to.have.length(2);
        for (const line of windows) expect(line).to.match(/Windows Server 2022 Datacenter\s+10\.0\.20348\.\d+\s+containerd:\/\//);
      });

      it('applies every example manifest of the seeds and waits for Ready', async () => {
        let r = await k(['create', 'namespace', ns]);
        expect(r.exitCode, r.stderr).to.equal(0);
        for (const m of SEED_MANIFESTS) {
          r = await k(['apply', '-n', ns, '-f', join(MANIFESTS, `${m}.yaml`)]);
          expect(r.exitCode, `apply ${m}: ${r.stderr}`).to.equal(0);
          expect(r.stdout).to.match(/created|configured/);
        }
        r = await k(['wait', '-n', ns, '--for=condition=Ready', '--timeout=120s', ...SEED_PODS.map(p => `pod/${p}`)], 150_000);
        expect(r.exitCode, `wait: ${r.stdout}\n${r.stderr}`).to.equal(0);
        r = await k(['wait', '-n', ns, '--for=condition=Available', '--timeout=120s', 'deployment/iis'], 150_000);
        expect(r.exitCode, `wait deployment: ${r.stdout}\n${r.stderr}`).to.equal(0);
      });

      it('runs one DaemonSet pod per Windows node and none on Linux', async () => {
        const nodes = await k(['get', 'nodes', '-l', 'kubernetes.io/os=windows', '-o', 'jsonpath={.items[*].metadata.name}']);
        const winNodes = nodes.stdout.trim().split(/\s+/).sort();
        // The DaemonSet controller works asynchronously: wait on kubectl's own watch-based wait.
        const r = await k(['wait', '-n', ns, '--for=condition=Ready', '--timeout=120s', 'pod', '-l', 'app=foo'], 150_000);
        expect(r.exitCode, r.stderr).to.equal(0);
        const pods = await k(['get', 'pods', '-n', ns, '-l', 'app=foo', '-o', 'jsonpath={.items[*].spec.nodeName}']);
        const placed = pods.stdout.trim().split(/\s+/).sort();
        expect(placed).to.deep.equal(winNodes);
      });

      it('shows logs of the IIS pod', async () => {
        const r = await k(['logs', '-n', ns, 'iis']);
        expect(r.exitCode, r.stderr).to.equal(0);
      });

      it('execs into the secret pod and prints the secret value with cmd /c echo %USERNAME%', async function () {
        if (Number(version.split('.')[1]) < 30) this.skip(); // older kubectl speaks SPDY for exec
        const r = await k(['exec', '-n', ns, 'my-secret-pod', '--', 'cmd', '/c', 'echo %USERNAME%']);
        expect(r.exitCode, r.stderr).to.equal(0);
        expect(r.stdout).to.equal('admin\r\n');
        const unset = await k(['exec', '-n', ns, 'my-secret-pod', '--', 'cmd', '/c', 'echo %NOT_SET_ANYWHERE%']);
        expect(unset.stdout).to.equal('%NOT_SET_ANYWHERE%\r\n');
        const exit = await k(['exec', '-n', ns, 'my-secret-pod', '--', 'cmd', '/c', 'exit 3']);
        expect(exit.exitCode).to.equal(3);
      });

      it('streams get pods -w', async () => {
        const w = execa(bin, ['--kubeconfig', sim.kubeconfig, 'get', 'pods', '-n', ns, '-w'], { reject: false, buffer: false });
        let out = '';
        const seen = new Promise<void>((res, rej) => {
          const timer = setTimeout(() => rej(new Error(`no watch output within 30s: ${out}`)), 30_000);
          w.stdout?.on('data', (d: Buffer) => {
            out += d.toString();
            if (/watch-probe\s/.test(out)) {
              clearTimeout(timer);
              res();
            }
          });
        });
        // A change made after the watch started must arrive on it.
        const started = new Promise<void>(res => w.stdout?.once('data', () => res()));
        await started;
        const r = await k([
          'run',
          'watch-probe',
          '-n',
          ns,
          '--image=registry.k8s.io/pause:3.10',
          '--overrides',
          JSON.stringify({ spec: { nodeSelector: { 'kubernetes.io/os': 'linux' } } }),
        ]);
        expect(r.exitCode, r.stderr).to.equal(0);
        try {
          await seen;
        } finally {
          w.kill('SIGINT');
          await w;
        }
        expect(out).to.match(/^NAME\s+READY\s+STATUS/m);
      });

      it('answers 422 with the field path for an invalid Windows pod under --dry-run=server', async () => {
        const r = await k(['apply', '-n', ns, '--dry-run=server', '-f', join(MANIFESTS, 'invalid-windows-pod.yaml')]);
        expect(r.exitCode).to.not.equal(0);
        expect(r.stderr).to.include('spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod');
        const get = await k(['get', 'pod', '-n', ns, 'invalid-windows-pod']);
        expect(get.stderr).to.match(/NotFound|not found/);
      });

      it('deletes the namespace and finds nothing left', async () => {
        let r = await k(['delete', 'namespace', ns, '--wait=true', '--timeout=120s'], 150_000);
        expect(r.exitCode, r.stderr).to.equal(0);
        r = await k(['get', 'all,secrets,configmaps', '-n', ns, '-o', 'name']);
        expect(r.stdout.trim()).to.equal('');
        r = await k(['get', 'namespace', ns]);
        expect(r.stderr).to.match(/not found/);
      });
    });
  }
});
