// The kubectl binaries of the machine (1.27 … 1.33) against the simulated API server:
// discovery, server-side printing, apply, watch, delete, dry run, error messages, auth.

import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEnv, kubectlBinaries, kubectl, kubectlUntil, type Env } from '../../support/simApi.ts';

const bins = kubectlBinaries();

const manifest = (ns: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: ${ns}
data:
  mode: "a"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: iis
  namespace: ${ns}
spec:
  replicas: 2
  selector:
    matchLabels: {app: iis}
  template:
    metadata:
      labels: {app: iis}
    spec:
      nodeSelector: {kubernetes.io/os: windows}
      tolerations: [{key: os, operator: Equal, value: windows, effect: NoSchedule}]
      containers:
      - name: iis
        image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022
        ports: [{containerPort: 80}]
`;

const pod = (ns: string, name: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${ns}}
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.9}]
`;

describe('sim api: kubectl', function () {
  let env: Env;
  before(async function () {
    if (bins.size === 0) {
      console.log('    (no kubectl binaries found beside kubectl: skipping)');
      this.skip();
    }
    env = await startEnv();
  });
  after(async () => {
    await env?.stop();
  });

  for (const v of ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33']) {
    describe(`kubectl ${v}`, function () {
      const ns = `k${v.replace('.', '-')}`;
      let bin: string;
      const run = (args: string[], input?: string) => kubectl(bin, env.kubeconfigPath, args, input);
      before(function () {
        const b = bins.get(v);
        if (!b) {
          console.log(`    (kubectl.${v} not found: skipping)`);
          this.skip();
        }
        bin = b!;
        env.store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns }, status: { phase: 'Active' } });
      });

      it('get nodes -o wide prints the server-side table', async () => {
        const r = await run(['get', 'nodes', '-o', 'wide']);
        expect(r.code, r.stderr).to.equal(0);
        const lines = r.stdout.trim().split('\n');
        expect(lines[0].split(/\s{2,}/)).to.deep.equal([
          'NAME',
          'STATUS',
          'ROLES',
          'AGE',
          'VERSION',
          'INTERNAL-IP',
          'EXTERNAL-IP',
          'OS-IMAGE',
          'KERNEL-VERSION',
          'CONTAINER-RUNTIME',
        ]);
        expect(lines[1]).to.match(
          /^linux-1\s+Ready\s+control-plane\s+\S+\s+v1\.33\.1\s+127\.0\.1\.1\s+<none>\s+Ubuntu 22\.04\.4 LTS\s+5\.15\.0-105-generic\s+containerd:\/\/1\.7\.20$/,
        );
        expect(lines[2]).to.match(/^win-1\s+Ready\s+<none>\s+\S+\s+v1\.33\.1\s+127\.0\.1\.2\s+<none>\s+Windows Server 2022 Datacenter\s+10\.0\.20348\.2582/);
      });

      it('apply -f creates and then configures namespaced objects', async () => {
        const r = await run(['apply', '-f', '-'], manifest(ns));
        expect(r.code, r.stderr).to.equal(0);
        expect(r.stdout).to.equal('configmap/settings created\ndeployment.apps/iis created\n');
        const r2 = await run(['apply', '-f', '-'], manifest(ns).replace('mode: "a"', 'mode: "b"'));
        expect(r2.code, r2.stderr).to.equal(0);
        expect(r2.stdout).to.equal('configmap/settings configured\ndeployment.apps/iis unchanged\n');
        expect((env.store.get('configmaps', ns, 'settings').data as Record<string, string>).mode).to.equal('b');
        const g = await run(['get', 'deploy', '-n', ns, '-o', 'wide']);
        expect(g.stdout.split('\n')[0].split(/\s{2,}/)).to.deep.equal(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
        expect(g.stdout).to.match(/iis\s+0\/2\s+0\s+0\s+\S+\s+iis\s+mcr\.microsoft\.com\S+\s+app=iis/);
      });

      it('apply --server-side creates and updates', async () => {
        const r = await run(['apply', '--server-side', '-f', '-'], pod(ns, 'ssa'));
        expect(r.code, r.stderr).to.equal(0);
        expect(r.stdout).to.equal('pod/ssa serverside-applied\n');
        const r2 = await run(['apply', '--server-side', '-f', '-'], pod(ns, 'ssa').replace('pause:3.9', 'pause:3.10'));
        expect(r2.code, r2.stderr).to.equal(0);
        expect((env.store.get('pods', ns, 'ssa').spec as { containers: { image: string }[] }).containers[0].image).to.equal('registry.k8s.io/pause:3.10');
      });

      it('get pods -w prints the table, then new rows as they come', async () => {
        const w = kubectlUntil(bin, env.kubeconfigPath, ['get', 'pods', '-n', ns, '-w'], out => /watched\s+0\/1\s+Pending\s+0\s+\S+\n/.test(out));
        // The header arrives once the initial list is printed; then a new pod shows up as a row.
        await new Promise<void>((resolve, reject) => {
          const onData = (d: Buffer) => {
            if (String(d).includes('NAME')) {
              w.child.stdout?.off('data', onData);
              resolve();
            }
          };
          w.child.stdout?.on('data', onData);
          w.done.catch(reject);
        });
        env.store.create('pods', {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'watched', namespace: ns },
          spec: { containers: [{ name: 'c', image: 'x' }] },
        });
        const out = await w.done;
        expect(out.split('\n')[0].split(/\s{2,}/)).to.deep.equal(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
        expect(out).to.match(/watched\s+0\/1\s+Pending\s+0\s+\S+/);
      });

      it('create --dry-run=server changes nothing', async () => {
        const r = await run(['create', '--dry-run=server', '-f', '-'], pod(ns, 'dry'));
        expect(r.code, r.stderr).to.equal(0);
        expect(r.stdout).to.equal('pod/dry created (server dry run)\n');
        expect(env.store.tryGet('pods', ns, 'dry')).to.equal(undefined);
      });

      it('prints the real NotFound and AlreadyExists errors', async () => {
        const nf = await run(['get', 'pod', 'nope', '-n', ns]);
        expect(nf.code).to.equal(1);
        expect(nf.stderr).to.include('Error from server (NotFound): pods "nope" not found');
        const ae = await run(['create', '-f', '-'], pod(ns, 'ssa'));
        expect(ae.code).to.equal(1);
        expect(ae.stderr).to.include('Error from server (AlreadyExists)');
        expect(ae.stderr).to.include('pods "ssa" already exists');
      });

      it('delete removes objects (cascading to dependents)', async () => {
        const r = await run(['delete', 'deploy/iis', 'configmap/settings', '-n', ns]);
        expect(r.code, r.stderr).to.equal(0);
        expect(r.stdout).to.equal('deployment.apps "iis" deleted\nconfigmap "settings" deleted\n');
        expect(env.store.tryGet('deployments.apps', ns, 'iis')).to.equal(undefined);
        const d = await run(['delete', 'pod', 'ssa', 'watched', '-n', ns, '--wait=false']);
        expect(d.code, d.stderr).to.equal(0);
      });

      it('is refused without credentials and accepted with a client certificate', async () => {
        const bad = join(env.dir, `bad-${v}`);
        writeFileSync(bad, env.api.kubeconfig().replace(env.api.token, 'wrong-token'), { mode: 0o600 });
        const r = await kubectl(bin, bad, ['get', 'nodes']);
        expect(r.code).to.equal(1);
        expect(r.stderr).to.include('Unauthorized');
        const c = await kubectl(bin, env.certKubeconfigPath, ['get', 'ns', 'test', '-o', 'name']);
        expect(c.code, c.stderr).to.equal(0);
        expect(c.stdout).to.equal('namespace/test\n');
      });

      it('creates typed objects (protobuf bodies from 1.32 on): namespace, deployment, configmap, secret, job, autoscale, set image', async () => {
        const steps: [string[], string][] = [
          [['create', 'namespace', `${ns}-x`], `namespace/${ns}-x created`],
          [['create', 'deployment', 'web', '-n', ns, '--image=img:1', '--replicas=3', '--port=80'], 'deployment.apps/web created'],
          [['create', 'configmap', 'cfg', '-n', ns, '--from-literal=a=b'], 'configmap/cfg created'],
          [['create', 'secret', 'generic', 'sec', '-n', ns, '--from-literal=pw=s3cr3t'], 'secret/sec created'],
          [['create', 'job', 'once', '-n', ns, '--image=img:1'], 'job.batch/once created'],
          [['create', 'service', 'clusterip', 'svc', '-n', ns, '--tcp=80:8080'], 'service/svc created'],
          [['autoscale', 'deploy/web', '-n', ns, '--min=2', '--max=5', '--cpu-percent=60'], 'horizontalpodautoscaler.autoscaling/web autoscaled'],
          [['set', 'image', 'deploy/web', '-n', ns, 'img=img:2'], 'deployment.apps/web image updated'],
        ];
        for (const [args, want] of steps) {
          const r = await run(args);
          expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0);
          expect(r.stdout.trim()).to.equal(want);
          expect(r.stderr, args.join(' ')).to.not.include('Warning');
        }
        const d = env.store.get('deployments.apps', ns, 'web') as unknown as {
          spec: { replicas: number; selector: unknown; template: { spec: { containers: { image: string; ports: unknown[] }[] } } };
        };
        expect(d.spec.replicas).to.equal(3);
        expect(d.spec.selector).to.deep.equal({ matchLabels: { app: 'web' } });
        expect(d.spec.template.spec.containers[0].image).to.equal('img:2');
        expect(d.spec.template.spec.containers[0].ports).to.deep.equal([{ containerPort: 80 }]);
        expect(env.store.get('secrets', ns, 'sec').data).to.deep.equal({ pw: Buffer.from('s3cr3t').toString('base64') });
        expect(env.store.get('configmaps', ns, 'cfg').data).to.deep.equal({ a: 'b' });
        expect((env.store.get('services', ns, 'svc').spec as { ports: unknown[] }).ports).to.deep.equal([
          { name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 },
        ]);
        const job = env.store.get('jobs.batch', ns, 'once').spec as { template: { spec: { restartPolicy: string } } };
        expect(job.template.spec.restartPolicy).to.equal('Never');
        const hpa = env.store.get('horizontalpodautoscalers.autoscaling', ns, 'web').spec as {
          minReplicas: number;
          maxReplicas: number;
          scaleTargetRef: { name: string };
        };
        expect([hpa.minReplicas, hpa.maxReplicas, hpa.scaleTargetRef.name]).to.deep.equal([2, 5, 'web']);
        const del = await run(['delete', 'hpa/web', 'job/once', 'svc/svc', 'secret/sec', 'cm/cfg', 'deploy/web', '-n', ns, '--wait=false']);
        expect(del.code, del.stderr).to.equal(0);
      });

      it('auth can-i and api-resources work', async () => {
        const r = await run(['auth', 'can-i', 'create', 'pods', '-n', ns]);
        expect(r.code, r.stderr).to.equal(0);
        expect(r.stdout.trim()).to.equal('yes');
        const a = await run(['api-resources', '-o', 'name']);
        expect(a.code, a.stderr).to.equal(0);
        expect(a.stdout.split('\n')).to.include.members(['pods', 'nodes', 'deployments.apps', 'runtimeclasses.node.k8s.io', 'events.events.k8s.io']);
      });
    });
  }
});
