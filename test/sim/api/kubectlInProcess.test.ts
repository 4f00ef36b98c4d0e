// Real kubectl binaries against the simulated API server (sim/api/server.ts) with this
// module set's admission, OpenAPI and streaming: apply on 1.27 (OpenAPI v2 protobuf)
// and 1.33 (v3), the Windows rules as kubectl prints them, exec over websockets (1.30+).
// Skips with a message where a kubectl binary or the server module is absent.

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlBinary } from '../../support/kubectl.ts';
import { Store } from '../../../sim/api/store.ts';
import { RESOURCES, bucketOf } from '../../../sim/api/resources.ts';
import { createAdmission } from '../../../sim/api/validation/index.ts';
import type { SubresourceHandlers } from '../../../sim/api/runtimeContract.ts';
import type { Profile } from '../../../sim/profiles/types.ts';

interface ApiServerLike {
  url: string;
  kubeconfig(opts?: { auth?: 'token' | 'cert' }): string;
  close(): Promise<void>;
}
type Start = (opts: { store: Store; profile: Profile; handlers?: SubresourceHandlers }) => Promise<ApiServerLike>;

const PROFILE: Profile = { name: 'b', kubernetesVersion: 'v1.33.2', nodes: [], network: { mode: 'l2bridge', cni: 'flannel' }, addons: {} };

const podManifest = (name: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: {app: iis}
spec:
  os: {name: windows}
  nodeSelector: {kubernetes.io/os: windows}
  tolerations: [{key: os, value: windows, effect: NoSchedule}]
  containers:
  - name: iis
    image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022
    ports: [{containerPort: 80}]
    resources: {limits: {cpu: 2, memory: 128Mi}}
`;

const FORBIDDEN = `apiVersion: v1
kind: Pod
metadata: {name: linux-fields}
spec:
  os: {name: windows}
  securityContext: {runAsUser: 1000}
  containers:
  - name: c
    image: mcr.microsoft.com/windows/nanoserver:ltsc2022
    securityContext: {privileged: true}
`;

const handlers: SubresourceHandlers = {
  async exec(req, streams) {
    streams.stdout.write(`${req.command.join(' ')}\r\n`);
    const m = /^exit (\d+)$/.exec(req.command.slice(2).join(' '));
    return { exitCode: m ? Number(m[1]) : 0 };
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

describe('sim API (admission, OpenAPI, streaming) with real kubectl', function () {
  this.timeout(120_000);
  let api: ApiServerLike | undefined;
  let kubeconfigPath: string;
  let store: Store;

  before(async function () {
    let start: Start | undefined;
    try {
      start = ((await import('../../../sim/api/server.ts')) as unknown as { startApiServer: Start }).startApiServer;
    } catch (err) {
      console.log(`    (sim/api/server.ts cannot be loaded: ${(err as Error).message}; skipped)`);
      this.skip();
    }
    store = new Store();
    for (const r of RESOURCES) if (r.namespaced) store.registerNamespaced(bucketOf(r));
    store.addAdmission(createAdmission(PROFILE));
    store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
    api = await start!({ store, profile: PROFILE, handlers });
    kubeconfigPath = join(mkdtempSync(join(tmpdir(), 'sim-api-b-')), 'kubeconfig');
    writeFileSync(kubeconfigPath, api.kubeconfig({ auth: 'token' }), { mode: 0o600 });
  });
  after(async () => {
    await api?.close();
  });

  const binary = (version: string, ctx: Mocha.Context): string => {
    const b = kubectlBinary(version);
    if (!b) {
      console.log(`    (kubectl.${version} is not on this machine: skipped)`);
      ctx.skip();
    }
    return b!;
  };
  const file = (name: string, text: string) => {
    const p = join(kubeconfigPath, '..', name);
    writeFileSync(p, text);
    return p;
  };

  for (const version of ['1.27', '1.33']) {
    it(`kubectl ${version} applies a Windows pod manifest (client validation on, server-side fieldValidation)`, async function () {
      const bin = binary(version, this);
      const name = `iis-${version.replace('.', '-')}`;
      const r = await kubectl(bin, kubeconfigPath, ['apply', '-f', file(`${name}.yaml`, podManifest(name)), '-v=6']);
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(r.stdout.trim()).to.equal(`pod/${name} created`);
      // 1.27 reads the v2 protobuf document; both read the v3 group-version document by its hashed URL.
      if (version === '1.27') expect(r.stderr).to.match(/GET \S+\/openapi\/v2\S* 200 OK/);
      expect(r.stderr).to.match(/\/openapi\/v3\/api\/v1\?hash=[0-9A-F]+\S*( 200 OK|" status="200 OK")/);
      expect(r.stderr).to.contain('fieldValidation=Strict');
      const again = await kubectl(bin, kubeconfigPath, ['apply', '-f', file(`${name}.yaml`, podManifest(name))]);
      // The defaulted tolerations make client-side apply send its (atomic) list again: "configured", as on a real cluster.
      expect(again.stdout.trim(), again.stderr).to.match(new RegExp(`^pod/${name} (configured|unchanged)$`));
    });

    it(`kubectl ${version} shows the Windows pod rules as the API server words them`, async function () {
      const bin = binary(version, this);
      const r = await kubectl(bin, kubeconfigPath, ['apply', '--dry-run=server', '-f', file('forbidden.yaml', FORBIDDEN)]);
      expect(r.exitCode).to.equal(1);
      expect(r.stderr).to.contain('The Pod "linux-fields" is invalid');
      expect(r.stderr).to.contain('spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod');
      expect(r.stderr).to.contain('spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod');
    });
  }

  it('kubectl 1.27 explains a field from the OpenAPI v2 protobuf document', async function () {
    const bin = binary('1.27', this);
    const r = await kubectl(bin, kubeconfigPath, ['explain', 'pods.spec.containers.ports', '--output', 'plaintext-openapiv2']);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/containerPort\s+<integer> -required-/);
  });

  for (const version of ['1.30', '1.31', '1.32', '1.33']) {
    it(`kubectl ${version} execs over websockets and returns the command's exit code`, async function () {
      const bin = binary(version, this);
      const name = 'exec-target';
      if (!store.tryGet('pods', 'default', name)) {
        store.create('pods', {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: 'default' },
          spec: { os: { name: 'windows' }, nodeName: 'win-1', containers: [{ name: 'iis', image: 'iis:ltsc2022' }] },
        });
        store.mutate('pods', 'default', name, o => {
          o.status = { phase: 'Running' };
        });
      }
      const ok = await kubectl(bin, kubeconfigPath, ['exec', name, '--', 'cmd', '/c', 'echo', 'hello']);
      expect(ok.exitCode, ok.stderr).to.equal(0);
      expect(ok.stdout).to.equal('cmd /c echo hello\r\n'); // the bytes as sent, CRLF included
      const fail = await kubectl(bin, kubeconfigPath, ['exec', name, '--', 'cmd', '/c', 'exit', '3']);
      expect(fail.exitCode, fail.stderr).to.equal(3);
      expect(fail.stderr).to.contain('command terminated with exit code 3');
    });
  }
});
