// Expectations of the Workloads/Configuration/Storage rows per discovered cluster.

import { expect } from 'chai';
import { formatSources } from '../../../../lib/facts/sources.ts';
import { unmetNeed } from '../../../../lib/catalog/needs.ts';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import type { Expected, Feature } from '../../../../lib/catalog/types.ts';
import { templateFiles } from '../../../../lib/fixtures/render.ts';
import { cluster, winNode } from '../../../support/clusterFixture.ts';

let catalog: Feature[];
const feature = (id: string) => {
  const f = catalog.find(x => x.id === id);
  if (!f) throw new Error(`feature ${id} is not in the catalog`);
  return f;
};
const v = (minor: number, patch = 0) => ({ version: { gitVersion: `v1.${minor}.${patch}`, major: 1, minor } });

const DOCUMENTED: Record<string, Expected> = {
  'work.statefulset': 'supported',
  'work.multi-container': 'supported',
  'work.exec-logs': 'supported',
  'work.port-forward': 'supported',
  'work.os-mismatch': 'limited',
  'work.env-colon-name': 'supported',
  'work.hpa': 'supported',
  'work.startup-latency': 'supported',
  'cfg.secret-volume': 'supported',
  'cfg.configmap-volume': 'supported',
  'cfg.configmap-file-acl': 'supported',
  'cfg.secret-defaultmode': 'limited',
  'cfg.secret-at-rest': 'limited',
  'stor.hostpath': 'supported',
  'stor.emptydir': 'supported',
  'stor.emptydir-readonly': 'supported',
  'stor.emptydir-memory': 'limited',
  'stor.subpath': 'supported',
  'stor.subpath-cleanup': 'limited',
  'stor.readonly-rootfs': 'limited',
  'stor.mount-propagation': 'limited',
  'stor.pvc': 'supported',
  'stor.nfs': 'limited',
  'stor.block': 'limited',
  'stor.resize': 'limited',
};

describe('workloads/config/storage expectations', () => {
  before(async () => {
    catalog = await loadCatalog();
  });

  it('every row is in the catalog, in its area, with a reason, a source and existing templates', () => {
    for (const [id, expected] of Object.entries(DOCUMENTED)) {
      const f = feature(id);
      expect(f.area, id).to.equal({ work: 'workloads', cfg: 'config', stor: 'storage' }[id.split('.')[0]]);
      const e = f.expect(cluster({ defaultStorageClass: 'standard' }));
      expect(e.expected, id).to.equal(expected);
      expect(e.reason, id).to.have.length.greaterThan(10);
      expect(e.source, id).to.not.be.empty;
      for (const spec of f.fixtures) expect(templateFiles().has(spec.template), `${id}: ${spec.template}`).to.equal(true);
    }
  });

  it('stor.subpath names the subPath handle leak before its fix and not after', () => {
    const f = catalog.find(x => x.id === 'stor.subpath')!;
    const old = f.expect(cluster({ version: { gitVersion: 'v1.33.1', major: 1, minor: 33 } }));
    const fixed = f.expect(cluster({ version: { gitVersion: 'v1.37.0', major: 1, minor: 37 } }));
    expect(old.expected).to.equal('supported');
    expect(old.reason).to.match(/before v1\.37 several subPaths/);
    expect(fixed.reason).to.not.match(/several subPaths/);
    expect(JSON.stringify(f.expect(cluster()).source)).to.include('subpath_cleanup.go');
  });

  it('stor.subpath-cleanup: limited where a Windows kubelet predates v1.37, supported where every one has the fix, citing upstream and the changelog', () => {
    const f = feature('stor.subpath-cleanup');
    const old = f.expect(cluster());
    expect(old.expected).to.equal('limited');
    expect(old.reason)
      .to.match(/v1\.33\.2 predates v1\.37/)
      .and.match(/stays Terminating/);
    const text = formatSources(old.source);
    expect(text).to.contain('https://github.com/kubernetes/kubernetes/blob/release-1.37/test/e2e/windows/subpath_cleanup.go');
    expect(text).to.contain('pod with multiple subPath mounts should terminate cleanly');
    expect(text).to.contain('https://github.com/kubernetes/kubernetes/pull/138367');
    expect(text).to.contain('CHANGELOG-1.37.md');
    const nodes = (...versions: string[]) => versions.map((kubeletVersion, i) => winNode(`win-${i}`, '10.0.20348', { kubeletVersion }));
    const fixed = f.expect(cluster({ version: { gitVersion: 'v1.37.1', major: 1, minor: 37 }, nodes: nodes('v1.37.1', 'v1.38.0') }));
    expect(fixed.expected).to.equal('supported');
    expect(fixed.reason).to.contain('v1.37.1, v1.38.0');
    // The fix is the kubelet's: an older Windows kubelet under a v1.37 API server still leaks.
    const skewed = f.expect(cluster({ version: { gitVersion: 'v1.37.1', major: 1, minor: 37 }, nodes: nodes('v1.37.1', 'v1.36.4') }));
    expect(skewed.expected).to.equal('limited');
    expect(skewed.reason).to.contain('v1.36.4 predates v1.37');
  });

  it('work.env-colon-name: limited before 1.32, supported from 1.32, naming the version', () => {
    const f = feature('work.env-colon-name');
    for (const minor of [27, 30, 31]) {
      const e = f.expect(cluster(v(minor, 4)));
      expect(e.expected, `1.${minor}`).to.equal('limited');
      expect(e.reason).to.contain(`v1.${minor}.4`);
      expect(formatSources(e.source)).to.contain('Using Windows Server Containers in Kubernetes');
    }
    for (const minor of [32, 33, 34]) expect(f.expect(cluster(v(minor))).expected, `1.${minor}`).to.equal('supported');
    expect(formatSources(f.expect(cluster(v(32))).source)).to.contain('KEP-4369');
  });

  it('claims: stor.pvc supported, stor.block and stor.resize limited with a default StorageClass; all n/a without', () => {
    const withClass = cluster({ defaultStorageClass: 'managed-csi' });
    expect(feature('stor.pvc').expect(withClass).expected).to.equal('supported');
    expect(feature('stor.pvc').expect(withClass).reason).to.contain('managed-csi');
    expect(feature('stor.block').expect(withClass).expected).to.equal('limited');
    expect(feature('stor.resize').expect(withClass).expected).to.equal('limited');
    for (const id of ['stor.pvc', 'stor.block', 'stor.resize']) {
      const e = feature(id).expect(cluster({ defaultStorageClass: undefined }));
      expect(e.expected, id).to.equal('n/a');
      expect(e.reason, id).to.contain('no default StorageClass');
      expect(unmetNeed('default-storageclass', cluster({ defaultStorageClass: undefined }), {})).to.contain('no default StorageClass');
    }
  });

  it('work.hpa: supported where metrics-server runs, else n/a', () => {
    expect(feature('work.hpa').expect(cluster({ metricsServer: true })).expected).to.equal('supported');
    const e = feature('work.hpa').expect(cluster({ metricsServer: false }));
    expect(e.expected).to.equal('n/a');
    expect(e.reason).to.contain('metrics-server');
    expect(feature('work.hpa').needs).to.include('metrics-server');
  });

  it('node-level rows need node access; n/a without it', () => {
    const none = cluster({ nodeAccess: { hostProcess: false, hostProcessReason: 'Kubernetes v1.25 < 1.26', ssh: false, sshReason: 'not configured' } });
    for (const id of ['cfg.secret-at-rest', 'stor.mount-propagation']) {
      expect(feature(id).needs, id).to.include('node-access');
      expect(unmetNeed('node-access', none, {}), id).to.contain('no node access');
    }
  });

  it('stor.nfs needs a Linux node for its NFS server', () => {
    expect(feature('stor.nfs').needs).to.include('linux-node');
    expect(feature('stor.nfs').fixtures.find(f => f.id === 'nfs-server')!.os).to.equal('linux');
  });

  it('features sharing a fixture id declare it identically', () => {
    const byId = new Map<string, string>();
    for (const f of catalog)
      for (const s of f.fixtures) {
        const key = JSON.stringify(s);
        if (byId.has(s.id)) expect(key, `${f.id}: fixture ${s.id}`).to.equal(byId.get(s.id));
        else byId.set(s.id, key);
      }
  });
});
