// Profiles at real sizes: node pools expanded into nodes named <pool>-<n>, background load of
// other tenants, the built-in big profile, and the one-line errors naming the bad field.

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { stringify } from 'yaml';
import type { V1Pod } from '@kubernetes/client-node';
import { loadProfile, ProfileError } from '../../../sim/profiles/load.ts';
import { Store } from '../../../sim/api/store.ts';
import { RESOURCES, bucketOf } from '../../../sim/api/resources.ts';
import { createBackground, isBackgroundPod } from '../../../sim/nodes/background.ts';
import { nodeSpecs } from '../../../sim/nodes/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'wincheck-pools-'));
let n = 0;
const WIN = { os: 'windows', windowsBuild: '10.0.20348.2582', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] };

function file(doc: Record<string, unknown>): string {
  const f = join(dir, `p${n++}.yaml`);
  writeFileSync(f, stringify({ name: 'pools', kubernetesVersion: 'v1.33.2', network: { mode: 'l2bridge', cni: 'flannel' }, ...doc }));
  return f;
}
function error(f: string): string {
  try {
    loadProfile(f);
  } catch (e) {
    expect(e).to.be.instanceOf(ProfileError);
    return (e as Error).message;
  }
  throw new Error('expected a ProfileError');
}

describe('sim profiles: node pools and background load', () => {
  it('expands pools after the listed nodes, each node <pool>-<n> built from the template', () => {
    const p = loadProfile(
      file({
        nodes: [{ name: 'cp', os: 'linux', role: 'control-plane' }],
        nodePools: [{ name: 'win', count: 3, template: { ...WIN, capacity: { cpu: '8' } } }],
      }),
    );
    expect(p.nodes.map(x => x.name)).to.deep.equal(['cp', 'win-1', 'win-2', 'win-3']);
    const specs = nodeSpecs(p);
    expect(specs[3]).to.deep.include({ os: 'windows', windowsBuild: '10.0.20348.2582', index: 3 });
    expect(specs[3].capacity.cpu).to.equal('8');
    // Copies: one node's spec is not another's.
    expect(p.nodes[1].taints).to.not.equal(p.nodes[2].taints);
  });

  it('a profile based on a pooled one expands the pools once, and its own pools replace the base ones', () => {
    const base = basename(file({ nodes: [{ name: 'cp', os: 'linux' }], nodePools: [{ name: 'win', count: 2, template: WIN }] }));
    expect(loadProfile(file({ base, name: 'child' })).nodes.map(x => x.name)).to.deep.equal(['cp', 'win-1', 'win-2']);
    expect(loadProfile(file({ base, name: 'child', nodePools: [{ name: 'lin', count: 1, template: { os: 'linux' } }] })).nodes.map(x => x.name)).to.deep.equal([
      'cp',
      'lin-1',
    ]);
  });

  it('names the bad field of a pool or of the background load', () => {
    expect(error(file({ nodePools: [{ name: 'win', count: 2, template: { os: 'windows' } }] }))).to.match(
      /: nodePools\[0\]\.template\.windowsBuild is required for a Windows node/,
    );
    expect(error(file({ nodePools: [{ name: 'win', count: 0, template: WIN }] }))).to.match(/: nodePools\[0\]\.count must be >= 1, got 0$/);
    expect(error(file({ nodePools: [{ name: 'win', count: 1, template: { ...WIN, name: 'x' } }] }))).to.match(
      /: nodePools\[0\]\.template\.name is not a known field/,
    );
    expect(
      error(
        file({
          nodePools: [
            { name: 'lin', count: 1, template: { os: 'linux' } },
            { name: 'lin', count: 1, template: { os: 'linux' } },
          ],
        }),
      ),
    ).to.match(/: nodePools\[1\]\.name "lin" is already used by nodePools\[0\]$/);
    expect(error(file({ nodes: [{ name: 'lin-2', os: 'linux' }], nodePools: [{ name: 'lin', count: 2, template: { os: 'linux' } }] }))).to.match(
      /: nodePools\[0\]\.name "lin-2" is already used by nodes\[0\]$/,
    );
    expect(error(file({ nodes: [{ name: 'a', os: 'linux' }], background: { namespaces: 2, podsPerNode: 'many' } }))).to.match(
      /: background\.podsPerNode must be a number, got string "many"$/,
    );
    expect(error(file({ nodes: [{ name: 'a', os: 'linux' }], background: { namespaces: 2, podsPerNode: 1, requests: { cpu: 'lots' } } }))).to.match(
      /: background\.requests\.cpu must look like a quantity/,
    );
    expect(error(file({ nodes: [] }))).to.match(/: nodes must list at least one node \(in nodes or nodePools\)$/);
  });

  it('background pods: podsPerNode on every schedulable worker, over the namespaces, bound, Running, with the requests', () => {
    const p = loadProfile(
      file({
        nodes: [
          { name: 'cp', os: 'linux', role: 'control-plane' },
          { name: 'cordoned', os: 'linux', unschedulable: true },
        ],
        nodePools: [
          { name: 'lin', count: 2, template: { os: 'linux' } },
          { name: 'win', count: 1, template: WIN },
        ],
        background: { namespaces: 4, podsPerNode: 3, requests: { cpu: '100m', memory: '128Mi' } },
      }),
    );
    const store = new Store();
    for (const r of RESOURCES) if (r.namespaced) store.registerNamespaced(bucketOf(r));
    expect(createBackground(store, p)).to.equal(9);
    expect(createBackground(store, p), 'made once').to.equal(0);
    const pods = store.scan('pods') as unknown as V1Pod[];
    expect(new Set(pods.map(x => x.spec!.nodeName))).to.deep.equal(new Set(['lin-1', 'lin-2', 'win-1']));
    expect(new Set(pods.map(x => x.metadata!.namespace))).to.deep.equal(new Set(['tenant-001', 'tenant-002', 'tenant-003', 'tenant-004']));
    expect(pods.every(x => x.status?.phase === 'Running' && isBackgroundPod(x))).to.equal(true);
    expect(pods[0].spec!.containers[0].resources?.requests).to.deep.equal({ cpu: '100m', memory: '128Mi' });
    const onWin = pods.find(x => x.spec!.nodeName === 'win-1')!;
    expect(onWin.spec!.tolerations).to.deep.include({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
  });

  it('the built-in big profile: 500 nodes, 450 Linux and 50 Windows on two builds, about 10,000 background pods in 100 namespaces', () => {
    const p = loadProfile('big');
    expect(p.nodes).to.have.length(500);
    expect(p.nodes.filter(x => x.os === 'linux')).to.have.length(450);
    const win = p.nodes.filter(x => x.os === 'windows');
    expect(win).to.have.length(50);
    expect(new Set(win.map(x => x.windowsBuild!.split('.')[2]))).to.deep.equal(new Set(['20348', '17763']));
    const workers = p.nodes.filter(x => x.role !== 'control-plane').length;
    expect(workers * p.background!.podsPerNode).to.be.within(9_900, 10_000);
    expect(p.background!.namespaces).to.equal(100);
  });
});
