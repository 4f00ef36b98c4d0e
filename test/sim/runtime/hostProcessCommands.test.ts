// HostProcess command lines and working directories as hcsshim resolves them: every case of upstream
// host_process.go "container command path validation" starts and exits 0, under containerd 1.7
// (mount point C:\hpc\) and 1.6 (C:\C\<id>\); a missing executable fails the start with the words of
// real-outputs/29; breaks: hostprocess-command-paths fails the mount-point and relative forms.

import { expect } from 'chai';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { createPod, events, startFixture, testProfile, waitPod, WIN, type Fixture } from '../../support/runtime.ts';

const BUSYBOX = 'registry.k8s.io/e2e-test-images/busybox:1.29-4';
const M = '%CONTAINER_SANDBOX_MOUNT_POINT%';
const E = '$env:CONTAINER_SANDBOX_MOUNT_POINT';
/** Upstream's cases: [command, args, workingDir]. */
export const CASES: [string[], string[]?, string?][] = [
  [['cmd.exe', '/c', 'ver']],
  [['System32\\cmd.exe', '/c', 'ver'], undefined, 'c:\\Windows'],
  [['System32\\cmd.exe', '/c', 'ver'], undefined, 'c:\\Windows\\'],
  [[`${M}\\bin\\uname.exe`, '-o']],
  [[`${M}/bin/uname.exe`, '-o']],
  [[`${M}\\bin/uname.exe`, '-o']],
  [['bin/uname.exe', '-o']],
  [['bin/uname.exe', '-o'], undefined, M],
  [['bin\\uname.exe', '-o'], undefined, M],
  [['uname.exe', '-o'], undefined, `${M}/bin`],
  [['uname.exe', '-o'], undefined, `${M}/bin/`],
  [['uname.exe', '-o'], undefined, `${M}\\bin\\`],
  [['powershell', 'cmd.exe', '/ver']],
  [['powershell', 'c:/Windows/System32/cmd.exe', '/c', 'ver']],
  [['powershell', 'c:\\Windows\\System32/cmd.exe', '/c', 'ver']],
  [['powershell', `${M}\\bin\\uname.exe`, '-o']],
  [['powershell', `${E}\\bin\\uname.exe`, '-o']],
  [['powershell', `${M}/bin/uname.exe`, '-o']],
  [['powershell', `${E}/bin/uname.exe`, '-o']],
  [['powershell', 'bin/uname.exe', '-o'], undefined, M],
  [['powershell', 'bin/uname.exe', '-o'], undefined, E],
  [['powershell', 'bin\\uname.exe', '-o'], undefined, E],
  [['powershell', '.\\uname.exe', '-o'], undefined, `${M}/bin`],
  [['powershell', './uname.exe', '-o'], undefined, `${M}/bin`],
  [['powershell', './uname.exe', '-o'], undefined, `${E}\\bin\\`],
  [[`${M}\\bin\\uname.exe`], ['-o']],
  [['bin\\uname.exe'], ['-o'], M],
  [['uname.exe'], ['-o'], `${M}\\bin`],
  [['cmd.exe'], ['/c', 'dir', `${M}\\bin\\uname.exe`]],
  [['cmd.exe'], ['/c', 'dir', 'bin\\uname.exe'], M],
  [['powershell'], ['Get-ChildItem', '-Path', `${E}\\bin\\uname.exe`]],
  [['powershell'], ['Get-ChildItem', '-Path', 'bin\\uname.exe'], E],
  [['powershell'], ['Get-ChildItem', '-Path', 'uname.exe'], `${E}/bin`],
];

const containers = (): V1Container[] =>
  CASES.map(([command, args, workingDir], i) => ({ name: `c${i}`, image: BUSYBOX, command, ...(args ? { args } : {}), ...(workingDir ? { workingDir } : {}) }));
const HPC = {
  hostNetwork: true,
  restartPolicy: 'Never',
  securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local Service' } },
};
const finished = (p: V1Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const failedOnes = (p: V1Pod) =>
  (p.status?.containerStatuses ?? []).filter(s => s.state?.terminated?.exitCode !== 0).map(s => `${s.name}: ${JSON.stringify(s.state?.terminated)}`);

describe('sim runtime: HostProcess command paths (hcsshim CreateProcess)', () => {
  let f: Fixture;
  afterEach(async () => {
    await f?.stop();
  });

  for (const rt of ['containerd://1.7.22', 'containerd://1.6.28']) {
    it(`every upstream command path case exits 0 (${rt})`, async () => {
      const base = testProfile();
      f = await startFixture({ ...base, nodes: base.nodes.map(n => (n.name === WIN ? { ...n, containerRuntime: rt } : n)) });
      createPod(f.store, WIN, 'paths', { ...HPC, containers: containers() });
      const p = await waitPod(f.store, 'paths', 'finished', finished, 30_000);
      expect(failedOnes(p)).to.deep.equal([]);
      expect(p.status?.phase).to.equal('Succeeded');
    });
  }

  it('a missing executable fails the start as containerd reports it', async () => {
    f = await startFixture();
    createPod(f.store, WIN, 'missing', { ...HPC, containers: [{ name: 'main', image: BUSYBOX, command: ['/usr/local/bin/azure-cns.exe'] }] });
    const p = await waitPod(f.store, 'missing', 'finished', finished);
    expect(p.status?.containerStatuses?.[0]?.state?.terminated?.reason).to.equal('StartError');
    expect(events(f.store, 'missing').find(e => e.reason === 'Failed')?.message).to.equal(
      'Error: failed to start containerd task "main": failed to get application name from commandline "/usr/local/bin/azure-cns.exe": failed to find executable "\\\\usr\\\\local\\\\bin\\\\azure-cns.exe": unknown',
    );
  });

  it('breaks: hostprocess-command-paths fails the mount-point and relative forms, not cmd.exe on PATH', async () => {
    f = await startFixture(testProfile({ breaks: ['hostprocess-command-paths'] }));
    createPod(f.store, WIN, 'paths', { ...HPC, containers: containers() });
    const p = await waitPod(f.store, 'paths', 'finished', finished, 30_000);
    const bad = failedOnes(p).map(l => l.replace(/:.*/, ''));
    expect(bad).to.include('c3').and.to.include('c9').and.not.to.include('c0');
  });
});
