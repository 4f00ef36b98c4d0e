// Expectations per discovered cluster: the catalog computes what the documentation promises.

import { expect } from 'chai';
import { unmetNeed } from '../../../../lib/catalog/needs.ts';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import type { Feature } from '../../../../lib/catalog/types.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

let catalog: Feature[];
const feature = (id: string) => catalog.find(f => f.id === id)!;

describe('catalog expectations', () => {
  before(async () => {
    catalog = await loadCatalog();
  });

  it('has the first features with unique ids, each with a source', () => {
    const ids = catalog.map(f => f.id);
    for (const id of [
      'sched.os-selector',
      'sched.os-selector-beta',
      'sched.linux-stays-linux',
      'sched.pod-os-field',
      'sched.taint-toleration',
      'sched.runtimeclass-scheduling',
      'work.iis-pod',
      'work.deployment',
      'work.daemonset',
      'cfg.secret-env',
      'cfg.configmap-env',
    ])
      expect(ids).to.include(id);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const f of catalog) expect(f.expect(cluster()).source, f.id).to.not.be.empty;
  });

  it('sched.pod-os-field: supported from beta 1.24 (on by default), limited before', () => {
    expect(feature('sched.pod-os-field').expect(cluster()).expected).to.equal('supported');
    expect(feature('sched.pod-os-field').expect(cluster({ version: { gitVersion: 'v1.24.9', major: 1, minor: 24 } })).expected).to.equal('supported');
    const old = feature('sched.pod-os-field').expect(cluster({ version: { gitVersion: 'v1.23.4', major: 1, minor: 23 } }));
    expect(old.expected).to.equal('limited');
    expect(old.reason).to.contain('alpha in Kubernetes v1.23.4').and.contain('off by default');
  });

  it('sched.os-selector-beta: limited when no Windows node has the deprecated label', () => {
    const bare = winNode('win-1');
    delete bare.labels['beta.kubernetes.io/os'];
    expect(feature('sched.os-selector-beta').expect(cluster({ nodes: [linuxNode('l'), bare] })).expected).to.equal('limited');
    const mixed = feature('sched.os-selector-beta').expect(cluster({ nodes: [linuxNode('l'), bare, winNode('win-2')] }));
    expect(mixed.expected).to.equal('supported');
    expect(mixed.reason).to.contain('not on win-1');
  });

  it('sched.taint-toleration: n/a when no Windows node is tainted', () => {
    const untainted = cluster({ nodes: [linuxNode('l'), winNode('win-1', '10.0.20348', { taints: [] })] });
    expect(feature('sched.taint-toleration').expect(untainted).expected).to.equal('n/a');
    expect(unmetNeed('tainted-windows-node', untainted, {})).to.equal('no Windows node is tainted (NoSchedule/NoExecute)');
    expect(feature('sched.taint-toleration').expect(cluster()).expected).to.equal('supported');
  });

  it('needs: a cluster without Windows nodes makes Windows features n/a with the reason', () => {
    const linuxOnly = cluster({ nodes: [linuxNode('l')] });
    expect(unmetNeed('windows-node', linuxOnly, {})).to.equal('the cluster has no Ready, schedulable Windows node');
    expect(unmetNeed('windows-node', cluster(), {})).to.equal(undefined);
    expect(unmetNeed('hyperv-runtimeclass', cluster(), {})).to.contain('runhcs-wcow-hypervisor');
    expect(unmetNeed('hyperv-runtimeclass', cluster({ hypervRuntimeClass: 'hyperv' }), {})).to.equal(undefined);
    expect(unmetNeed('egress-url', cluster(), {})).to.contain('--egress-url');
    expect(unmetNeed('two-windows-nodes', cluster({ nodes: [winNode('w')] }), {})).to.contain('has 1');
  });

  it('needs: cordoned or NotReady Windows nodes do not count', () => {
    const c = cluster({ nodes: [linuxNode('l'), winNode('w', '10.0.20348', { schedulable: false })] });
    expect(unmetNeed('windows-node', c, {})).to.not.equal(undefined);
  });
});
