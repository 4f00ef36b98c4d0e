// Pure parts of the probes: parsing real Windows output, choosing a mismatching build, comparing
// files without recording them.

import { expect } from 'chai';
import { modeOf, secretVolumeDirOnNode } from '../../../../lib/catalog/cfg/volumes.ts';
import { storageBytes } from '../../../../lib/catalog/stor/volumes.ts';
import { otherBuildTag } from '../../../../lib/catalog/work/buildMismatch.ts';
import { parseIpconfig } from '../../../../lib/probes/readers/ipconfig.ts';
import { accessDenied, fileMatches } from '../../../../lib/catalog/kit/fileCompare.ts';
import type { ProbeResult, Transport } from '../../../../lib/probes/types.ts';
import type { CommandResult } from '../../../../lib/cluster/exec.ts';

// docs/windows-commands.md §4 (ipconfig /all composite), CRLF as cmd writes it.
const IPCONFIG = [
  'Windows IP Configuration',
  '',
  '   Host Name . . . . . . . . . . . . : statefulset-0',
  '   Primary Dns Suffix  . . . . . . . :',
  '   Node Type . . . . . . . . . . . . : Hybrid',
  '   DNS Suffix Search List. . . . . . : wincheck-r1.svc.cluster.local',
  '                                       svc.cluster.local',
  '                                       cluster.local',
  '',
  'Ethernet adapter vEthernet (abc_eth0):',
  '',
  '   Connection-specific DNS Suffix  . : cluster.local',
].join('\r\n');

const fakeTransport = (r: CommandResult, seen: (string[] | string)[] = []): Transport => ({
  description: 'exec ns/pod [c]',
  os: 'windows',
  run: async cmd => {
    seen.push(cmd);
    return r;
  },
});
const ctx = { options: { timeouts: { exec: 1000 } }, signal: new AbortController().signal } as Parameters<typeof fileMatches>[0];

describe('workloads/config/storage probe helpers', () => {
  it('the ipconfig reader takes the search list with its continuation lines', () => {
    expect(parseIpconfig(IPCONFIG).searchList).to.deep.equal(['wincheck-r1.svc.cluster.local', 'svc.cluster.local', 'cluster.local']);
    expect(parseIpconfig('Windows IP Configuration\r\n').searchList).to.deep.equal([]);
  });

  it('otherBuildTag picks another LTSC build, older first', () => {
    expect(otherBuildTag('10.0.20348.2582')).to.deep.equal({ tag: 'ltsc2019', build: '10.0.17763' });
    expect(otherBuildTag('10.0.26100')).to.deep.equal({ tag: 'ltsc2019', build: '10.0.17763' });
    expect(otherBuildTag('10.0.17763')).to.deep.equal({ tag: 'ltsc2022', build: '10.0.20348' });
  });

  it('modeOf reads busybox ls -l lines, following "name -> target" symlinks', () => {
    const ls = [
      'lrwxrwxrwx    1 root     root            31 Nov 30 03:50 ..data -> ..2026_11_30_03_50_01.123456789',
      '-r--------    1 root     root            20 Nov 30 03:50 data',
    ].join('\n');
    expect(modeOf(ls, 'data')).to.equal('-r--------');
    expect(modeOf('-rw-r--r--    1 root root 20 2026-11-30 03:50 data\n', 'data')).to.equal('-rw-r--r--');
    expect(modeOf('lrwxrwxrwx 1 root root 11 Nov 30 03:50 data -> ..data/data\n', 'data')).to.equal('lrwxrwxrwx');
    expect(modeOf('', 'data')).to.equal(undefined);
  });

  it('storageBytes understands the claim quantities', () => {
    expect(storageBytes('1Gi')).to.equal(2 ** 30);
    expect(storageBytes('2Gi')! > storageBytes('1Gi')!).to.equal(true);
    expect(storageBytes('500M')).to.equal(5e8);
    expect(storageBytes(undefined)).to.equal(undefined);
  });

  it('accessDenied reads stderr, not the exit code (a failed redirection may exit 0)', () => {
    const r = (stderr: string, exitCode = 0): ProbeResult => ({
      op: 'write-file',
      ok: exitCode === 0,
      detail: '',
      evidence: { transport: 't', command: 'c', exitCode, stdout: '', stderr, durationMs: 1 },
    });
    expect(accessDenied(r('Access is denied.\r\n'))).to.equal(true);
    expect(accessDenied(r('', 0))).to.equal(false);
    expect(accessDenied(r('The system cannot find the path specified.\r\n', 1))).to.equal(false);
  });

  it('fileMatches compares in the harness and never records the content', async () => {
    const seen: (string[] | string)[] = [];
    const ok = await fileMatches(
      ctx,
      fakeTransport({ stdout: 'S3cr3t-value', stderr: '', exitCode: 0 }, seen),
      'C:\\etc\\secret-volume\\password',
      'S3cr3t-value',
    );
    expect(ok.ok).to.equal(true);
    expect(seen[0]).to.deep.equal(['cmd', '/c', 'type C:\\etc\\secret-volume\\password']);
    expect(JSON.stringify(ok)).to.not.contain('S3cr3t-value');
    const differs = await fileMatches(ctx, fakeTransport({ stdout: 'other\r\n', stderr: '', exitCode: 0 }), 'C:\\x', 'S3cr3t-value');
    expect(differs.ok).to.equal(false);
    expect(differs.evidence.stdout).to.contain('does not match');
    expect(JSON.stringify(differs)).to.not.contain('other');
    const missing = await fileMatches(ctx, fakeTransport({ stdout: '', stderr: 'The system cannot find the file specified.\r\n', exitCode: 1 }), 'C:\\x', 'v');
    expect(missing.ok).to.equal(false);
    expect(missing.detail).to.contain('could not be read');
  });

  it("secretVolumeDirOnNode is under the kubelet's default root dir", () => {
    expect(secretVolumeDirOnNode('1234-abcd', 'secret')).to.equal('C:\\var\\lib\\kubelet\\pods\\1234-abcd\\volumes\\kubernetes.io~secret\\secret');
  });
});
