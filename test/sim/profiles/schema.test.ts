// The profile fields for real node shapes: accepted where a real node has such a value,
// rejected with the file and field named where it cannot be right.

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadProfile, ProfileError } from '../../../sim/profiles/load.ts';
import { buildNodeObject, nodeSpecs } from '../../../sim/nodes/index.ts';
import type { V1Node } from '@kubernetes/client-node';

const dir = mkdtempSync(join(tmpdir(), 'wincheck-nodeshape-'));
let n = 0;
function write(edit: (win: Record<string, unknown>) => void): string {
  const doc = structuredClone(loadProfile('minimal')) as unknown as { nodes: Record<string, unknown>[] };
  edit(doc.nodes.find(x => x.os === 'windows')!);
  const file = join(dir, `p${n++}.yaml`);
  writeFileSync(file, stringify(doc));
  return file;
}
function error(file: string): string {
  try {
    loadProfile(file);
  } catch (e) {
    expect(e).to.be.instanceOf(ProfileError);
    return (e as Error).message;
  }
  throw new Error('expected a ProfileError');
}
function windowsNode(file: string): V1Node {
  const p = loadProfile(file);
  const spec = nodeSpecs(p).find(s => s.os === 'windows')!;
  return buildNodeObject(p, spec, { internalIP: '127.0.10.9', podCIDR: '10.244.9.0/24' }) as unknown as V1Node;
}

describe('sim profiles: fields for real node shapes', () => {
  it('accepts three-part builds and any runtime version string', () => {
    const node = windowsNode(
      write(w => {
        w.windowsBuild = '10.0.14393';
        w.containerRuntime = 'docker://Unknown';
      }),
    );
    expect(node.status!.nodeInfo).to.include({
      kernelVersion: '10.0.14393',
      containerRuntimeVersion: 'docker://Unknown',
      osImage: 'Windows Server 2016 Datacenter',
    });
    expect(node.metadata!.labels!['node.kubernetes.io/windows-build']).to.equal('10.0.14393');
    expect(
      windowsNode(
        write(w => {
          w.containerRuntime = 'containerd://1.19';
        }),
      ).status!.nodeInfo!.containerRuntimeVersion,
    ).to.equal('containerd://1.19');
  });

  it('makes a node with only the beta OS labels, and one without windows-build', () => {
    const beta = windowsNode(
      write(w => {
        w.removeLabels = ['kubernetes.io/os', 'node.kubernetes.io/windows-build'];
      }),
    );
    expect(beta.metadata!.labels).to.include({ 'beta.kubernetes.io/os': 'windows' });
    expect(beta.metadata!.labels).to.not.have.any.keys('kubernetes.io/os', 'node.kubernetes.io/windows-build');
  });

  it('sets osImage editions, annotations, addresses, extra conditions and extended resources', () => {
    const node = windowsNode(
      write(w => {
        w.osImage = 'Microsoft Windows [Version 10.0.14393]';
        w.annotations = { ovn_host_subnet: '10.130.2.0/23' };
        w.hostname = 'ec2amaz-83bb2ln';
        w.addresses = [
          { type: 'ExternalDNS', address: 'ec2-3-17-131-156.us-east-2.compute.amazonaws.com' },
          { type: 'ExternalIP', address: '3.17.131.156' },
        ];
        w.conditions = [{ type: 'OutOfDisk', status: 'False', reason: 'KubeletHasSufficientDisk', message: 'kubelet has sufficient disk space available' }];
        w.extendedResources = { 'nvidia.com/gpu': '1' };
        w.capacity = { cpu: '2', memory: '8Gi', pods: '110', 'ephemeral-storage': '0' };
      }),
    );
    expect(node.status!.nodeInfo!.osImage).to.equal('Microsoft Windows [Version 10.0.14393]');
    expect(node.metadata!.annotations).to.include({ ovn_host_subnet: '10.130.2.0/23' });
    expect(node.status!.addresses!.map(a => `${a.type}=${a.address}`)).to.deep.equal([
      'InternalIP=127.0.10.9',
      'ExternalIP=3.17.131.156',
      'ExternalDNS=ec2-3-17-131-156.us-east-2.compute.amazonaws.com',
      'Hostname=ec2amaz-83bb2ln',
    ]);
    expect(node.status!.conditions!.map(c => c.type)).to.include.members(['OutOfDisk', 'Ready']);
    expect(node.status!.capacity).to.include({ 'nvidia.com/gpu': '1', 'ephemeral-storage': '0' });
    expect(node.status!.allocatable).to.include({ 'nvidia.com/gpu': '1' });
  });

  it('rejects what a real node cannot have, naming the field', () => {
    expect(
      error(
        write(w => {
          w.extendedResources = { gpu: '1' };
        }),
      ),
    ).to.match(/nodes\[2\]\.extendedResources\.gpu must be a domain-prefixed name/);
    expect(
      error(
        write(w => {
          w.conditions = [{ type: 'Ready', status: 'False' }];
        }),
      ),
    ).to.match(/nodes\[2\]\.conditions\[0\]\.type must not be Ready \(set nodes\[\]\.ready instead\)/);
    expect(
      error(
        write(w => {
          w.addresses = [{ type: 'InternalIP', address: '1.2.3.4' }];
        }),
      ),
    ).to.match(/nodes\[2\]\.addresses\[0\]\.type "InternalIP" is not a known address type/);
    expect(
      error(
        write(w => {
          w.breaks = ['exec', 'exec'];
        }),
      ),
    ).to.match(/nodes\[2\]\.breaks\[1\] "exec" is already listed at nodes\[2\]\.breaks\[0\]/);
    expect(
      error(
        write(w => {
          w.limitations = { warp: false };
        }),
      ),
    ).to.match(/nodes\[2\]\.limitations\.warp is not a known limitation/);
    expect(
      error(
        write(w => {
          w.containerRuntime = 'containerd';
        }),
      ),
    ).to.match(/nodes\[2\]\.containerRuntime must look like containerd:\/\/1\.7\.20/);
  });
});
