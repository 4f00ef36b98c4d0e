// Admission for the simulated API server: defaulting, then validation against the
// upstream schemas, the semantic rules real clients meet and the Windows pod rules
// of the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/). Failures are 422 Invalid exactly as the real server words them.

import type { Profile } from '../../profiles/types.ts';
import { RESOURCES, apiVersionOf, bucketOf } from '../resources.ts';
import type { Admission, KubeObject } from '../store.ts';
import { applyDefaults } from './defaults.ts';
import { dropDisabledPodFields } from './disabledFields.ts';
import { minorVersion } from '../../nodes/versions.ts';
import { invalidError } from './errors.ts';
import { objectErrors } from './objects.ts';
import type { PodRules } from './pod.ts';
import { schemaErrors } from './schema.ts';

/** The rules this cluster's version and profile put on pods. */
export function podRules(profile: Profile): PodRules {
  return {
    // KEP-4369 is on by default from 1.32; a profile lifting the limitation relaxes it on any version.
    relaxedEnvNames: minorVersion(profile.kubernetesVersion) >= 1032 || profile.limitations?.envColonName === false,
    windowsRules: profile.limitations?.linuxFieldsRejected !== false,
    rejectOSField: profile.breaks?.includes('pod-os-field') ?? false,
    windowsStopSignals: !(profile.breaks?.includes('stop-signal-validation') ?? false),
  };
}

export function createAdmission(profile: Profile): Admission {
  const rules = podRules(profile);
  return (bucket, op, input, old) => {
    if (op === 'delete') return input;
    const rt = RESOURCES.find(r => bucketOf(r) === bucket);
    if (!rt) return input;
    const obj: KubeObject = input;
    // Objects written in-process may lack TypeMeta; the schema needs it.
    const typed = obj.apiVersion && obj.kind ? obj : { ...obj, apiVersion: apiVersionOf(rt), kind: rt.kind };
    const errs = schemaErrors(typed);
    if (errs.length === 0) {
      dropDisabledPodFields(bucket, obj, profile.kubernetesVersion, profile.featureGates);
      applyDefaults(bucket, obj, op);
      errs.push(...objectErrors(bucket, obj, old, rules));
    }
    if (errs.length) throw invalidError(rt.kind, rt.group, obj.metadata?.name ?? '', errs);
    return obj;
  };
}
