// What the harness may do in the cluster: the permissions each selection needs, the
// RBAC manifest `wincheck rbac` prints (ci/rbac.yaml kept current), the SelfSubjectAccessReview
// preflight naming every missing permission, and runs as a least-privilege ServiceAccount.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import type { V1ClusterRole, V1PolicyRule } from '@kubernetes/client-node';
import { describePermission } from '../../../lib/cluster/permission.ts';
import { featureAccess } from '../../../lib/catalog/access.ts';
import { accessNeeds, runPartNeed } from '../../../lib/run/access.ts';
import { rbacManifest } from '../../../lib/run/rbacManifest.ts';
import { loadCatalog } from '../../../lib/catalog/registry.ts';
import { selectFeatures } from '../../../lib/catalog/select.ts';
import type { Feature } from '../../../lib/catalog/types.ts';
import { deniedPermissions } from '../../../lib/cluster/accessReview.ts';
import { ROOT, wincheck } from '../../support/cli.ts';
import { raw, startEnv, type Env } from '../../support/simApi.ts';
import * as k8s from '@kubernetes/client-node';

const CI_RBAC = join(ROOT, 'ci/rbac.yaml');

function roleOf(manifest: string): V1ClusterRole {
  return parseAllDocuments(manifest)
    .map(d => d.toJS() as V1ClusterRole)
    .find(o => o.kind === 'ClusterRole')!;
}

describe('harness: permissions a selection needs', () => {
  let catalog: Feature[];
  before(async () => {
    catalog = await loadCatalog();
  });

  it('maps every fixture kind of the catalog and adds what probes do beyond their fixtures', () => {
    for (const f of catalog) expect(() => featureAccess(f), f.id).not.to.throw();
    const perms = (id: string) => featureAccess(catalog.find(f => f.id === id)!).map(p => describePermission(p));
    expect(perms('work.exec-logs')).to.include.members([
      'get pods/log in the run namespace',
      'get pods/exec in the run namespace',
      'create pods/exec in the run namespace',
    ]);
    expect(perms('work.port-forward')).to.include.members(['get pods/portforward in the run namespace', 'create pods/portforward in the run namespace']);
    expect(perms('res.metrics-api')).to.include.members(['get pods.metrics.k8s.io in the run namespace', 'get nodes.metrics.k8s.io cluster-wide']);
    expect(perms('res.stats')).to.include('get nodes/proxy cluster-wide');
    expect(perms('work.hpa')).to.include('create horizontalpodautoscalers.autoscaling in the run namespace');
  });

  it('names who needs each permission, the run itself first', () => {
    const needs = accessNeeds(selectFeatures(catalog, { features: ['work.exec-logs', 'res.stats'] }));
    const find = (verb: string, resource: string) => needs.find(n => n.verb === verb && n.resource === resource)!;
    expect(find('list', 'nodes').neededBy).to.deep.equal([runPartNeed('discovery')]);
    expect(find('get', 'pods/log').neededBy).to.deep.equal([runPartNeed('diagnostics'), 'work.exec-logs']);
    expect(find('get', 'nodes/proxy').neededBy).to.deep.equal(['res.stats']);
    expect(find('create', 'pods/exec').neededBy).to.have.members(['work.exec-logs', 'res.stats']);
  });

  it('ci/rbac.yaml is "wincheck rbac" for the whole catalog (regenerate: npx tsx cli/main.ts rbac > ci/rbac.yaml)', () => {
    expect(readFileSync(CI_RBAC, 'utf8')).to.equal(rbacManifest(catalog));
  });

  it('"wincheck rbac --feature" prints a smaller role for a smaller selection', async function () {
    this.timeout(30_000);
    const r = await wincheck(['rbac', '--feature', 'work.exec-logs', '--service-account', 'ci/runner']);
    expect(r.exitCode, r.all).to.equal(0);
    const rules = roleOf(r.stdout).rules!;
    const has = (resource: string) => rules.some(x => x.resources!.includes(resource));
    expect(has('pods/log')).to.equal(true);
    expect(has('nodes/proxy')).to.equal(false);
    expect(r.stdout).to.include('namespace: ci').and.include('name: runner');
    const bad = await wincheck(['rbac', '--service-account', 'nobody']);
    expect(bad.exitCode).to.equal(2);
    expect(bad.stderr).to.include('--service-account nobody is not <namespace>/<name>');
  });
});

describe('harness: the RBAC preflight against the simulated API server', function () {
  this.timeout(120_000);
  let env: Env;
  let catalog: Feature[];
  let saKc: k8s.KubeConfig;
  const ciRole = () => roleOf(readFileSync(CI_RBAC, 'utf8'));
  const putRole = (rules: V1PolicyRule[]) => raw(env, 'PUT', '/apis/rbac.authorization.k8s.io/v1/clusterroles/wincheck', { body: { ...ciRole(), rules } });

  before(async () => {
    catalog = await loadCatalog();
    env = await startEnv();
    for (const d of parseAllDocuments(readFileSync(CI_RBAC, 'utf8')).map(x => x.toJS() as k8s.KubernetesObject)) {
      const path =
        d.kind === 'ServiceAccount'
          ? '/api/v1/namespaces/default/serviceaccounts'
          : `/apis/rbac.authorization.k8s.io/v1/${d.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings'}`;
      expect((await raw(env, 'POST', path, { body: d })).status).to.equal(201);
    }
    const tr = await raw(env, 'POST', '/api/v1/namespaces/default/serviceaccounts/wincheck/token', { body: { spec: {} } });
    saKc = new k8s.KubeConfig();
    saKc.loadFromString(env.api.kubeconfig().replace(env.api.token, tr.json<{ status: { token: string } }>().status.token));
  });
  after(async () => {
    await env?.stop();
  });

  it('finds nothing missing for the ServiceAccount bound to ci/rbac.yaml', async () => {
    expect(await deniedPermissions(saKc, accessNeeds(catalog), 'wincheck-abc')).to.deep.equal([]);
  });

  it('names exactly the permission of any single rule removed from ci/rbac.yaml, and who needs it', async () => {
    const rules = ciRole().rules!;
    const needs = accessNeeds(catalog);
    for (let i = 0; i < rules.length; i++) {
      const removed = rules[i];
      expect((await putRole(rules.filter((_, j) => j !== i))).status).to.equal(200);
      const denied = await deniedPermissions(saKc, needs, 'wincheck-abc');
      const want = needs.filter(n => n.group === removed.apiGroups![0] && n.resource === removed.resources![0]);
      expect(
        denied.map(d => `${d.verb} ${d.resource}`),
        stringify(removed),
      ).to.have.members(want.map(n => `${n.verb} ${n.resource}`));
      expect(denied.every(d => d.neededBy.length > 0)).to.equal(true);
    }
    await putRole(rules);
  });
});
