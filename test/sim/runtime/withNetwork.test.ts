// The runtime with the real network twin (sim/network): a Windows pod reaches IIS
// in another pod with curl.exe, and an SSH session on a Windows node runs cmd.exe
// on the node (Get-Service sees kubelet, the secret's plaintext copy is readable).

import { expect } from 'chai';
import ssh2 from 'ssh2';
import type { KubeObject } from '../../../sim/api/store.ts';
import { Store } from '../../../sim/api/store.ts';
import { startNetwork, type SimNetwork } from '../../../sim/network/index.ts';
import { startRuntime, type Runtime } from '../../../sim/runtime/index.ts';
import { createPod, exec, interpreterUnderTest, isReady, NS, testProfile, waitPod, WIN } from '../../support/runtime.ts';

function sshExec(host: string, privateKey: string, pinned: string, command: string): Promise<{ code?: number; stdout: string; stderr: string }> {
  const blob = Buffer.from(pinned.split(' ')[1], 'base64');
  return new Promise((resolve, reject) => {
    const conn = new ssh2.Client();
    conn.on('error', reject);
    conn.on('ready', () =>
      conn.exec(command, (err, stream) => {
        if (err) {
          conn.end();
          return reject(err);
        }
        let stdout = '',
          stderr = '',
          code: number | undefined;
        stream.on('data', (d: Buffer) => {
          stdout += d;
        });
        stream.stderr.on('data', (d: Buffer) => {
          stderr += d;
        });
        stream.on('exit', (c: number) => {
          code = c;
        });
        stream.on('close', () => {
          conn.end();
          resolve({ code, stdout, stderr });
        });
      }),
    );
    conn.connect({ host, port: 22, username: 'Administrator', privateKey, readyTimeout: 5000, hostVerifier: (k: Buffer) => k.equals(blob) });
  });
}

describe('sim runtime: with the real network twin', () => {
  let store: Store, net: SimNetwork, rt: Runtime;
  beforeEach(async function () {
    const profile = testProfile();
    profile.nodes = profile.nodes.map(n => (n.name === WIN ? { ...n, ssh: true } : n));
    store = new Store();
    for (const b of ['pods', 'secrets', 'configmaps', 'events', 'persistentvolumeclaims', 'services', 'endpointslices.discovery.k8s.io'])
      store.registerNamespaced(b);
    for (const ns of [NS, 'default', 'kube-system']) store.create('namespaces', { metadata: { name: ns } });
    try {
      net = await startNetwork({ store, profile, registerAdmission: true });
    } catch (e) {
      // The twin binds 127.96.0.10:53 and port 22; another run may hold them.
      console.warn(`skipping: ${(e as Error).message}`);
      this.skip();
    }
    rt = startRuntime({
      store,
      profile,
      network: net,
      options: { runCommand: await interpreterUnderTest(), crashBackoffBaseMs: 300, pullBackoffBaseMs: 300, retryMs: 200 },
    });
  });
  afterEach(async () => {
    await rt?.stop();
    await net?.stop();
  });

  it('serves IIS to a curl.exe probe from another Windows pod', async function () {
    if (process.env.SIM_RUNTIME_STUB_SHELL) this.skip();
    createPod(store, WIN, 'iis', {
      containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', ports: [{ containerPort: 80 }] }],
    });
    createPod(store, WIN, 'probe', {
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['ping', '-t', 'localhost'] }],
    });
    const iis = await waitPod(store, 'iis', 'Ready', isReady);
    await waitPod(store, 'probe', 'Ready', isReady);
    const r = await exec(rt, 'probe', ['cmd', '/c', `curl.exe -s http://${iis.status!.podIP}/ --connect-timeout 10 --fail`]);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.include('<title>IIS Windows Server</title>');
  });

  it('netstat -an in an agnhost Windows pod lists its netexec listener and a connection from another pod', async function () {
    if (process.env.SIM_RUNTIME_STUB_SHELL) this.skip();
    const agnhost = { name: 'c', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: ['netexec', '--http-port=8080', '--udp-port=-1'] };
    createPod(store, WIN, 'srv', { containers: [agnhost] });
    createPod(store, WIN, 'cli', { containers: [agnhost] });
    const srv = await waitPod(store, 'srv', 'Ready', isReady);
    const cli = await waitPod(store, 'cli', 'Ready', isReady);
    const r = await exec(rt, 'srv', ['cmd', '/c', 'netstat -an -p TCP']);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^\r\nActive Connections\r\n\r\n {2}Proto {2}Local Address {10}Foreign Address {8}State\r\n/);
    expect(r.stdout).to.contain('  TCP    0.0.0.0:8080           0.0.0.0:0              LISTENING\r\n');
    const s = await net.connect({
      from: { kind: 'pod', id: `${NS}/cli`, os: 'windows', node: WIN, address: cli.status!.podIP! },
      host: srv.status!.podIP!,
      port: 8080,
      timeoutMs: 2000,
    });
    try {
      const held = await exec(rt, 'srv', ['cmd', '/c', 'netstat -an']);
      expect(held.stdout).to.contain(`  TCP    ${`${srv.status!.podIP}:8080`.padEnd(22)} ${`${cli.status!.podIP}:${s.localPort}`.padEnd(22)} ESTABLISHED\r\n`);
    } finally {
      s.destroy();
    }
  });

  it('runs SSH sessions on the Windows node through cmd.exe', async function () {
    if (process.env.SIM_RUNTIME_STUB_SHELL) this.skip();
    store.create('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: NS },
      data: { k: Buffer.from('v4lue').toString('base64') },
    } as KubeObject);
    const pod = createPod(store, WIN, 'sv', {
      volumes: [{ name: 'sec', secret: { secretName: 's' } }],
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', volumeMounts: [{ name: 'sec', mountPath: 'C:\\sec' }] }],
    });
    await waitPod(store, 'sv', 'Ready', isReady);
    const key = net.hostKeys()[WIN].publicKey;
    const addr = net.nodeAddress(WIN);
    const { privateKey } = net.sshClientKey();
    const svc = await sshExec(addr, privateKey, key, 'powershell -NoProfile -Command Get-Service kubelet');
    expect(svc.code, svc.stderr).to.equal(0);
    expect(svc.stdout).to.match(/Running\s+kubelet/);
    const file = await sshExec(addr, privateKey, key, `type C:\\var\\lib\\kubelet\\pods\\${pod.metadata!.uid}\\volumes\\kubernetes.io~secret\\sec\\k`);
    expect(file.code, file.stderr).to.equal(0);
    expect(file.stdout === 'v4lue', 'the node-disk copy matches the secret').to.equal(true);
  });
});
