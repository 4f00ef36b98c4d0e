// Which admission refused, read from the shape upstream gives each refusal, not a product's words.

import { expect } from 'chai';
import { ApiException } from '@kubernetes/client-node';
import { admissionRefusal } from '../../../lib/cluster/admissionRefusal.ts';

const api = (code: number, message: string) => new ApiException(code, 'refused', JSON.stringify({ kind: 'Status', message }), {});

describe('admissionRefusal', () => {
  it('names a webhook by its name, whatever it says (Kyverno, Gatekeeper, Rancher)', () => {
    const kyverno = admissionRefusal(api(400, 'admission webhook "validate.kyverno.svc-fail" denied the request: \n\nresource Namespace//w was blocked'));
    expect(kyverno).to.deep.equal({
      admission: 'admission webhook "validate.kyverno.svc-fail"',
      text: 'admission webhook "validate.kyverno.svc-fail" denied the request: \n\nresource Namespace//w was blocked',
    });
    const gk = admissionRefusal(
      new Error('failed to create Pod ns/p', { cause: api(403, 'admission webhook "validation.gatekeeper.sh" denied the request: [psp-host] x') }),
    );
    expect(gk?.admission).to.equal('admission webhook "validation.gatekeeper.sh"');
    expect(admissionRefusal(api(400, 'admission webhook "rancher.cattle.io.namespaces" denied the request without explanation'))?.admission).to.equal(
      'admission webhook "rancher.cattle.io.namespaces"',
    );
  });

  it('names ValidatingAdmissionPolicies, Pod Security and OpenShift SCCs, with the text from the object on', () => {
    expect(
      admissionRefusal(api(403, `namespaces "w" is forbidden: ValidatingAdmissionPolicy 'floor' with binding 'floor' denied request: weaker than baseline`)),
    ).to.deep.equal({
      admission: 'ValidatingAdmissionPolicy "floor"',
      text: `namespaces "w" is forbidden: ValidatingAdmissionPolicy 'floor' with binding 'floor' denied request: weaker than baseline`,
    });
    expect(admissionRefusal(new Error('x: pods "hp" is forbidden: violates PodSecurity "baseline:latest": host namespaces (HTTP 403)'))).to.deep.equal({
      admission: 'Pod Security admission',
      text: 'pods "hp" is forbidden: violates PodSecurity "baseline:latest": host namespaces',
    });
    const scc = admissionRefusal(
      api(403, 'pods "hp" is forbidden: unable to validate against any security context constraint: [provider "anyuid": Forbidden: not usable by user]'),
    );
    expect(scc?.admission).to.equal('SecurityContextConstraints admission');
    expect(scc?.text).to.match(/^pods "hp" is forbidden: unable to validate against any security context constraint: \[provider "anyuid"/);
  });

  it('is not a refusal: a webhook that could not be called, RBAC, a server error', () => {
    expect(admissionRefusal(api(500, 'Internal error occurred: failed calling webhook "x.example.com": context deadline exceeded'))).to.equal(undefined);
    expect(admissionRefusal(api(403, 'pods is forbidden: User "u" cannot create resource "pods" in API group "" in the namespace "n"'))).to.equal(undefined);
    expect(admissionRefusal(api(503, 'admission webhook "x" denied the request: y'))).to.equal(undefined);
  });
});
