// The fixture pods of a failing check as a maintainer reads them first: each pod's spec and status
// (kubectl get -o yaml, without managedFields), its events (kubectl describe's list) and its
// containers' logs, the previous instance's too (kubectl logs --previous). Secret objects are never
// read; a pod's spec only names the Secrets its env and volumes come from.

import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { errorText } from '../../../util/errorText.ts';
import { apiStatusCode } from '../../cluster/apiError.ts';
import { listAll } from '../../cluster/list.ts';
import type { KubeClients } from '../../cluster/types.ts';
import { FIXTURE_LABEL } from '../../labels.ts';

/** Lines of each container log asked for (kubectl logs --tail); the byte bound applies after. */
export const LOG_TAIL_LINES = 2000;

export interface DiagnosticsFile {
  /** Path inside the feature's folder. */
  path: string;
  text: string;
}

/** The pods of these fixtures (and probe pods copied from them, which carry the fixture label). */
export async function fixturePods(kube: KubeClients, namespace: string, fixtureIds: string[]): Promise<V1Pod[]> {
  if (!fixtureIds.length) return [];
  const labelSelector = `${FIXTURE_LABEL} in (${fixtureIds.join(',')})`;
  const list = await listAll(q => kube.core.listNamespacedPod({ namespace, labelSelector, ...q }));
  return list.items;
}

/** Every file of one pod; a refusal (403) or failure of one read is said in its file, never thrown. */
export async function podFiles(kube: KubeClients, pod: V1Pod): Promise<DiagnosticsFile[]> {
  const name = pod.metadata!.name!;
  const namespace = pod.metadata!.namespace!;
  const { managedFields: _, ...metadata } = pod.metadata!;
  const files: DiagnosticsFile[] = [
    { path: `pods/${name}.yaml`, text: stringify({ apiVersion: 'v1', kind: 'Pod', metadata, spec: pod.spec, status: pod.status }) },
  ];
  files.push({ path: `pods/${name}.events.txt`, text: await podEvents(kube, namespace, name) });
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    files.push({ path: `pods/${name}.${c.name}.log`, text: await containerLog(kube, namespace, name, c.name, false) });
    // Only a restarted container has a previous instance (the API answers 400 otherwise).
    if ((statuses.find(s => s.name === c.name)?.restartCount ?? 0) > 0)
      files.push({ path: `pods/${name}.${c.name}.previous.log`, text: await containerLog(kube, namespace, name, c.name, true) });
  }
  return files;
}

/** The pod's events oldest first, one line each, as kubectl describe lists them. */
async function podEvents(kube: KubeClients, namespace: string, name: string): Promise<string> {
  try {
    const list = await listAll(q => kube.core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${name}`, ...q }));
    if (!list.items.length) return '(no events)\n';
    return list.items
      .sort((a, b) => eventTime(a) - eventTime(b))
      .map(
        e =>
          `${new Date(eventTime(e)).toISOString()} ${e.type ?? ''} ${e.reason ?? ''} ${e.source?.component ?? e.reportingComponent ?? ''}${e.involvedObject.fieldPath ? ` ${e.involvedObject.fieldPath}` : ''}${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}: ${e.message ?? ''}`,
      )
      .join('\n')
      .concat('\n');
  } catch (e) {
    return refused(e, 'list events');
  }
}

function eventTime(e: CoreV1Event): number {
  const t = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp;
  return t ? new Date(t as unknown as string).getTime() : 0;
}

async function containerLog(kube: KubeClients, namespace: string, name: string, container: string, previous: boolean): Promise<string> {
  try {
    const log = await kube.core.readNamespacedPodLog({ namespace, name, container, previous, tailLines: LOG_TAIL_LINES });
    return log === '' ? '(empty log)\n' : log;
  } catch (e) {
    return refused(e, 'get pods/log');
  }
}

/** A read that failed, said in the file: a 403 names the permission the role lacks. */
export function refused(e: unknown, verb: string): string {
  if (apiStatusCode(e) === 403)
    return `[wincheck: not collected: the API refused "${verb}" (403 Forbidden); grant it as \`wincheck rbac\` prints]\n${errorText(e)}\n`;
  return `[wincheck: not collected: ${verb} failed]\n${errorText(e)}\n`;
}
