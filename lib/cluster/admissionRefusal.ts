// Which admission refused a request, and what it said, read from the shape upstream gives each
// refusal, never from a product's wording:
// - an admission webhook (Kyverno, Gatekeeper, Rancher, any other): `admission webhook "NAME" denied
//   the request: MESSAGE` (or `... denied the request without explanation`), with the webhook's own
//   code, at least 400 (https://github.com/kubernetes/apiserver/blob/master/pkg/admission/plugin/webhook/errors/statuserror.go);
// - a ValidatingAdmissionPolicy: `ValidatingAdmissionPolicy 'NAME' with binding 'BINDING' denied
//   request: MESSAGE` (https://github.com/kubernetes/apiserver/blob/master/pkg/admission/plugin/policy/validating/dispatcher.go);
// - Pod Security admission: `violates PodSecurity "LEVEL:VERSION": ...`
//   (https://github.com/kubernetes/pod-security-admission/blob/master/admission/admission.go);
// - OpenShift's SecurityContextConstraints admission: `unable to validate against any security
//   context constraint: [...]` (https://github.com/openshift/apiserver-library-go/blob/master/pkg/securitycontextconstraints/sccadmission/admission.go).
// A webhook that could not be called (`failed calling webhook`) refused nothing: not one of these.

import { ApiException } from '@kubernetes/client-node';
import { apiErrorMessage } from './apiError.ts';

export interface AdmissionRefusal {
  /** Which admission refused, as a report names it: 'Pod Security admission', 'admission webhook "validate.kyverno.svc"'. */
  admission: string;
  /** What it said: the API server's message from the object's "is forbidden:" on, without the HTTP code. */
  text: string;
}

const FORMS: { re: RegExp; admission: (m: RegExpExecArray) => string }[] = [
  { re: /admission webhook "([^"]+)" denied the request/, admission: m => `admission webhook "${m[1]}"` },
  { re: /ValidatingAdmissionPolicy '([^']+)' with binding '([^']*)' denied request/, admission: m => `ValidatingAdmissionPolicy "${m[1]}"` },
  { re: /violates PodSecurity "/, admission: () => 'Pod Security admission' },
  { re: /unable to validate against any security context constraint/, admission: () => 'SecurityContextConstraints admission' },
];

/** The refusal's text from the object's `<kind> "<name>" is forbidden:` when the message has it. */
function fromObject(text: string, at: number): string {
  const forbidden = text.lastIndexOf(' is forbidden: ', at);
  const start = forbidden >= 0 ? text.lastIndexOf(' "', forbidden) : -1;
  const kindStart = start >= 0 ? Math.max(text.lastIndexOf(' ', start - 1) + 1, 0) : -1;
  return text
    .slice(kindStart >= 0 && forbidden >= 0 ? kindStart : at)
    .replace(/ \(HTTP \d+\)$/, '')
    .trim();
}

/** An admission's refusal anywhere in the error's cause chain (ApiExceptions of 400, 403 or 422, or the text of errors wrapping one); else undefined. */
export function admissionRefusal(e: unknown): AdmissionRefusal | undefined {
  for (let x: unknown = e, depth = 0; x && depth < 10; x = (x as { cause?: unknown }).cause, depth++) {
    const text = x instanceof ApiException ? ([400, 403, 422].includes(x.code) ? apiErrorMessage(x) : '') : x instanceof Error ? x.message : '';
    for (const f of FORMS) {
      const m = f.re.exec(text);
      if (m) return { admission: f.admission(m), text: fromObject(text, m.index) };
    }
  }
  return undefined;
}
