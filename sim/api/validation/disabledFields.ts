// dropDisabledFields: pod fields whose feature gate is off at the cluster's version are
// removed on write, silently, as the real API server's pod strategy does (a client reading
// the object back sees them gone). Versions: sim/nodes/versions.ts.

import type { V1PodSpec } from '@kubernetes/client-node';
import type { KubeObject } from '../store.ts';
import { hostProcessFieldServed, podOSFieldServed, stopSignalServed } from '../../nodes/versions.ts';

/** The pod specs an object carries: a pod's own, a workload's template, a CronJob's job template. */
function podSpecsOf(bucket: string, obj: KubeObject): V1PodSpec[] {
  const spec = obj.spec as { template?: { spec?: V1PodSpec }; jobTemplate?: { spec?: { template?: { spec?: V1PodSpec } } } } | undefined;
  if (!spec) return [];
  if (bucket === 'pods') return [spec as V1PodSpec];
  // (PodTemplate objects carry no spec: their template is left as written.)
  if (bucket === 'cronjobs.batch') return spec.jobTemplate?.spec?.template?.spec ? [spec.jobTemplate.spec.template.spec] : [];
  return spec.template?.spec ? [spec.template.spec] : [];
}

export function dropDisabledPodFields(bucket: string, obj: KubeObject, apiVersion: string, gates?: Record<string, boolean>): void {
  const dropOS = !podOSFieldServed(apiVersion);
  const dropHostProcess = !hostProcessFieldServed(apiVersion, gates);
  const dropStopSignal = !stopSignalServed(apiVersion, gates);
  if (!dropOS && !dropHostProcess && !dropStopSignal) return;
  for (const spec of podSpecsOf(bucket, obj)) {
    if (dropOS) delete spec.os;
    if (dropStopSignal)
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) if (c.lifecycle) delete (c.lifecycle as { stopSignal?: string }).stopSignal;
    if (!dropHostProcess) continue;
    for (const wo of [
      spec.securityContext?.windowsOptions,
      ...[...(spec.containers ?? []), ...(spec.initContainers ?? [])].map(c => c.securityContext?.windowsOptions),
    ])
      if (wo) delete wo.hostProcess;
  }
}
