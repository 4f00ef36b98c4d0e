// Validating admission webhooks a profile declares (`admissionWebhooks`), refusing in their own
// words as a policy engine does (Kyverno, Gatekeeper, Rancher's webhook): the API server wraps the
// webhook's message as upstream does, `admission webhook "NAME" denied the request: MESSAGE`, with
// the webhook's code (at least 400; 400 when it gives none), see
// https://github.com/kubernetes/apiserver/blob/master/pkg/admission/plugin/webhook/errors/statuserror.go

import { StoreError, type Admission } from '../store.ts';
import type { AdmissionWebhookSpec, Profile } from '../../profiles/types.ts';

/** A label key matches a pattern exactly, or by prefix when the pattern ends in `*`. */
function keyMatches(key: string, pattern: string): boolean {
  return pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern;
}

function refuses(w: AdmissionWebhookSpec, kind: string | undefined, op: string, labels: Record<string, string>): boolean {
  const r = w.rejects;
  if (r.kinds?.length && !r.kinds.includes(kind ?? '')) return false;
  if (!(r.operations ?? ['CREATE', 'UPDATE']).includes(op.toUpperCase() as 'CREATE' | 'UPDATE')) return false;
  if (r.labels?.length && !Object.keys(labels).some(k => r.labels!.some(p => keyMatches(k, p)))) return false;
  return true;
}

export function webhookAdmission(profile: Profile): Admission {
  const hooks = profile.admissionWebhooks ?? [];
  return (bucket, op, obj) => {
    // kube-system is left alone, as policy engines exempt it by default (and the cluster's own add-ons live there).
    if (!hooks.length || op === 'delete' || obj.metadata.namespace === 'kube-system') return obj;
    for (const w of hooks) {
      if (!refuses(w, obj.kind, op, obj.metadata.labels ?? {})) continue;
      const code = Math.max(w.code ?? 400, 400);
      throw new StoreError(
        code,
        code === 403 ? 'Forbidden' : code === 422 ? 'Invalid' : 'BadRequest',
        `admission webhook "${w.name}" denied the request: ${w.message}`,
        {
          name: obj.metadata.name,
          kind: bucket.split('.')[0],
        },
      );
    }
    return obj;
  };
}
