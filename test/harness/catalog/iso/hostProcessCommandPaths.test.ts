// iso.hostprocess-command-paths: the fixture holds upstream's 33 cases, a case passes only when its
// container exited 0, and the expectation names the mount point of the node's containerd.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import { CASES, commandPathResults } from '../../../../lib/catalog/iso/hostProcessCommandPaths.ts';
import { loadTemplate } from '../../../../lib/fixtures/render.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

const pod = (name: string, ended: Record<string, { exitCode: number; reason?: string; message?: string } | undefined>): V1Pod => ({
  metadata: { name },
  spec: { containers: Object.keys(ended).map(n => ({ name: n, command: ['bin\\uname.exe', '-o'], workingDir: '%CONTAINER_SANDBOX_MOUNT_POINT%' })) },
  status: {
    containerStatuses: Object.entries(ended).map(([n, t]) => ({
      name: n,
      image: 'b',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: t ? { terminated: t } : { waiting: {} },
    })),
  },
});

describe('iso.hostprocess-command-paths', () => {
  it("the fixture holds upstream's 33 cases, in 3 HostProcess pods", () => {
    const t = loadTemplate('hostprocess-command-paths');
    expect((t.match(/- name: case-\d\d/g) ?? []).length).to.equal(CASES);
    expect((t.match(/^kind: Pod$/gm) ?? []).length).to.equal(3);
    expect((t.match(/hostProcess: true/g) ?? []).length).to.equal(3);
  });

  it('passes a case only on exit 0, naming command, working directory and how it ended', () => {
    const r = commandPathResults([
      pod('p-1', {
        'case-00': { exitCode: 0 },
        'case-01': { exitCode: 128, reason: 'StartError', message: 'failed to find executable "bin\\\\uname.exe"' },
        'case-02': undefined,
      }),
    ]);
    expect(r.passed).to.deep.equal(['case-00']);
    expect(r.failed[0]).to.equal(
      'case-01: command ["bin\\\\uname.exe","-o"] workingDir "%CONTAINER_SANDBOX_MOUNT_POINT%": exit 128 StartError: failed to find executable "bin\\\\uname.exe"',
    );
    expect(r.failed[1]).to.match(/^case-02: .*not terminated/);
  });

  it('supported where HostProcess runs, with the mount point of containerd 1.6 and 1.7; n/a on docker', async () => {
    const f = (await loadCatalog()).find(x => x.id === 'iso.hostprocess-command-paths')!;
    const on = (runtimeName: string, runtimeVersion: string) =>
      cluster({ nodes: [linuxNode('l'), winNode('w', '10.0.20348', { runtimeName, runtimeVersion })] });
    const e17 = f.expect(on('containerd', '1.7.22'));
    expect(e17.expected).to.equal('supported');
    expect(e17.reason).to.contain('C:\\hpc\\');
    expect(f.expect(on('containerd', '1.6.28')).reason).to.contain('C:\\C\\<container id>\\');
    expect(JSON.stringify(e17.source)).to.contain('host_process.go').and.to.contain('container command path validation');
    expect(f.expect(on('docker', '20.10.9')).expected).to.equal('n/a');
  });
});
