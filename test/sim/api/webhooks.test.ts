// A profile's admission webhooks refuse in their own words, wrapped as the API server wraps a webhook's denial.

import { expect } from 'chai';
import { webhookAdmission } from '../../../sim/api/admission/webhooks.ts';
import { StoreError, type KubeObject } from '../../../sim/api/store.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';

const ns = (labels: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'w', labels } });

describe('sim admission webhooks', () => {
  const profile = {
    ...loadProfile('minimal'),
    admissionWebhooks: [
      { name: 'validate.kyverno.svc-fail', rejects: { kinds: ['Namespace'], labels: ['pod-security.kubernetes.io/*'] }, message: 'blocked by psa-labels' },
      { name: 'validation.gatekeeper.sh', rejects: { kinds: ['Deployment'], operations: ['CREATE' as const] }, message: '[no-deployments] no', code: 403 },
    ],
  };
  const admit = webhookAdmission(profile);

  it("refuses a matching object with upstream's wrapping and the webhook's code (400 by default)", () => {
    let err: unknown;
    try {
      admit('namespaces', 'create', ns({ 'pod-security.kubernetes.io/enforce': 'privileged' }), undefined);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StoreError);
    expect((err as StoreError).code).to.equal(400);
    expect((err as StoreError).message).to.equal('admission webhook "validate.kyverno.svc-fail" denied the request: blocked by psa-labels');
    const dep: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'w' } };
    expect(() => admit('deployments.apps', 'create', dep, undefined)).to.throw(
      StoreError,
      /validation.gatekeeper.sh" denied the request: \[no-deployments\] no/,
    );
  });

  it('admits what does not match: other labels, other kinds and operations, kube-system', () => {
    expect(admit('namespaces', 'create', ns({ team: 'a' }), undefined).metadata.name).to.equal('w');
    const dep: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'w' } };
    expect(admit('deployments.apps', 'update', dep, dep).metadata.name).to.equal('d');
    expect(admit('deployments.apps', 'create', { ...dep, metadata: { name: 'coredns', namespace: 'kube-system' } }, undefined).metadata.name).to.equal(
      'coredns',
    );
    expect(admit('pods', 'create', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'w' } }, undefined).metadata.name).to.equal('p');
  });
});
