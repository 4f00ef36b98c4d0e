// Runs on the simulated cluster as a real cluster would let us in: as a least-privilege
// ServiceAccount (ci/rbac.yaml), with a permission missing, and under a cluster-wide Pod
// Security default the run namespace cannot opt out of.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import type { V1ClusterRole } from '@kubernetes/client-node';
import { loadCatalog } from '../../lib/catalog/registry.ts';
import { ROOT } from '../support/cli.ts';
import { FAST_NET, runOnSim } from '../support/simRun.ts';
import type { PodSecurityLevel } from '../../sim/profiles/types.ts';

const CI_RBAC = readFileSync(join(ROOT, 'ci/rbac.yaml'), 'utf8');
const EGRESS = 'http://egress.wincheck.test/';

/** ci/rbac.yaml without the rule on `resource`. */
function without(resource: string): string {
  return parseAllDocuments(CI_RBAC)
    .map(d => {
      const o = d.toJS() as V1ClusterRole;
      if (o.kind === 'ClusterRole') o.rules = o.rules!.filter(r => !r.resources!.includes(resource));
      return stringify(o);
    })
    .join('---\n');
}

describe('harness: runs as a least-privilege ServiceAccount', function () {
  this.timeout(600_000);

  it('the whole catalog as the ci/rbac.yaml ServiceAccount gets the verdicts the admin gets', async () => {
    const ids = (await loadCatalog()).map(f => f.id);
    // One after the other: two whole runs at once on a small machine misjudge by timing (a late LoadBalancer address).
    const admin = await runOnSim(ids, { egressUrl: EGRESS, timeouts: FAST_NET });
    const sa = await runOnSim(ids, { egressUrl: EGRESS, timeouts: FAST_NET, rbac: CI_RBAC });
    const verdicts = (r: typeof admin) => Object.fromEntries(ids.map(id => [id, r.results.get(id)?.outcome]));
    const differing = ids
      .filter(id => sa.results.get(id)?.outcome !== admin.results.get(id)?.outcome)
      .map(id => `${id}: as the ServiceAccount ${sa.results.get(id)?.outcome} (${sa.results.get(id)?.reason}), as admin ${admin.results.get(id)?.outcome}`);
    expect(verdicts(sa), differing.join('\n')).to.deep.equal(verdicts(admin));
    expect(sa.exitCode).to.equal(admin.exitCode);
    expect(Object.values(verdicts(sa))).not.to.include('error');
  });

  it('with one rule missing, stops before creating anything and names the permission and the features', async () => {
    const run = await runOnSim(['res.stats', 'res.cpu-limit-enforced', 'work.exec-logs'], { rbac: without('nodes/proxy'), expectError: true });
    expect(run.exitCode).to.equal(3);
    expect(run.error)
      .to.include('1 permission(s) missing; nothing was created')
      .and.include('missing permission: get nodes/proxy cluster-wide, needed by res.cpu-limit-enforced, res.stats');
    expect(run.created).to.deep.equal([]);
  });

  it('a missing "list nodes" is a missing permission, not an unreachable cluster', async () => {
    const run = await runOnSim(['sched.os-selector'], { rbac: without('nodes'), expectError: true });
    expect(run.exitCode).to.equal(3);
    expect(run.error).to.include('missing permission: list nodes cluster-wide, needed by wincheck').and.not.include('unreachable');
    expect(run.created).to.deep.equal([]);
  });

  it('--skip-unpermitted runs the rest and reports the unpermitted features n/a', async () => {
    const run = await runOnSim(['res.stats', 'work.exec-logs'], { rbac: without('nodes/proxy'), skipUnpermitted: true });
    expect(run.results.get('res.stats')).to.deep.include({ outcome: 'n/a' });
    expect(run.results.get('res.stats')!.reason).to.include('not permitted: get nodes/proxy cluster-wide');
    expect(run.results.get('work.exec-logs')!.outcome).to.equal('supported');
    expect(run.exitCode).to.equal(0);
  });
});

describe('harness: a cluster-wide Pod Security default the namespace cannot opt out of', function () {
  this.timeout(600_000);
  const PRIVILEGED = ['iso.hostprocess', 'stor.hostpath', 'sec.privileged', 'net.dns-hostnet'];
  const PLAIN = ['work.deployment', 'cfg.configmap-env', 'sched.os-selector'];

  for (const level of ['baseline', 'restricted'] as PodSecurityLevel[]) {
    it(`${level}: completes, privileged features n/a with the rejection text${level === 'baseline' ? ', the others run' : ''}`, async () => {
      const run = await runOnSim([...PRIVILEGED, ...PLAIN], {
        egressUrl: EGRESS,
        timeouts: FAST_NET,
        edit: p => {
          p.podSecurity = { defaults: { enforce: level }, enforceFloor: true };
        },
      });
      const outcome = (id: string) => run.results.get(id)!;
      for (const id of PRIVILEGED) {
        expect(outcome(id).outcome, `${id}: ${outcome(id).reason}`).to.equal('n/a');
        expect(outcome(id).reason).to.match(new RegExp(`violates PodSecurity "${level}:latest": `));
      }
      if (level === 'baseline') for (const id of PLAIN) expect(outcome(id).outcome, `${id}: ${outcome(id).reason}`).to.equal('supported');
      else for (const id of PLAIN) expect(outcome(id).outcome, `${id}: ${outcome(id).reason}`).to.be.oneOf(['supported', 'n/a']);
      expect(run.output.join('\n')).to.match(
        /The cluster's ValidatingAdmissionPolicy "[^"]+" refused the Pod Security labels on namespace \S+ \(namespaces "\S+" is forbidden: ValidatingAdmissionPolicy/,
      );
      expect([...run.results.values()].map(r => r.outcome)).not.to.include('error');
      expect(run.exitCode).to.equal(0);
      expect(run.leftover).to.deep.equal([]);
    });
  }
});

describe('harness: admission webhooks refusing in their own words', function () {
  this.timeout(600_000);

  it('a webhook refusing the namespace labels: retried without them, the run names the webhook and its words; a webhook refusing a fixture: its features n/a in its words', async () => {
    const run = await runOnSim(['iso.hostprocess', 'work.deployment', 'sched.os-selector'], {
      egressUrl: EGRESS,
      timeouts: FAST_NET,
      edit: p => {
        p.podSecurity = { defaults: { enforce: 'baseline' } };
        p.admissionWebhooks = [
          {
            name: 'validate.kyverno.svc-fail',
            rejects: { kinds: ['Namespace'], labels: ['pod-security.kubernetes.io/*'] },
            message:
              '\n\npolicy Namespace//wincheck for resource violation: \n\npsa-labels:\n  deny-privileged: namespaces may not opt out of the baseline level',
          },
          {
            name: 'validation.gatekeeper.sh',
            rejects: { kinds: ['Deployment'] },
            message: '[no-deployments] Deployments are managed by the platform team',
            code: 403,
          },
        ];
      },
    });
    const out = run.output.join('\n');
    expect(out).to.match(
      /The cluster's admission webhook "validate.kyverno.svc-fail" refused the Pod Security labels on namespace \S+ \(admission webhook "validate.kyverno.svc-fail" denied the request: [\s\S]*namespaces may not opt out/,
    );
    const r = (id: string) => run.results.get(id)!;
    expect(r('iso.hostprocess').outcome, r('iso.hostprocess').reason).to.equal('n/a');
    expect(r('iso.hostprocess').reason).to.match(/Pod Security admission refused it: .*violates PodSecurity "baseline:latest"/);
    expect(r('work.deployment').outcome, r('work.deployment').reason).to.equal('n/a');
    expect(r('work.deployment').reason).to.match(
      /admission webhook "validation.gatekeeper.sh" refused it: .*admission webhook "validation.gatekeeper.sh" denied the request: \[no-deployments\] Deployments are managed by the platform team/,
    );
    expect(r('sched.os-selector').outcome, r('sched.os-selector').reason).to.equal('supported');
    expect(run.exitCode).to.equal(0);
    expect(run.leftover).to.deep.equal([]);
  });
});
