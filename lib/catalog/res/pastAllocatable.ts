// res.past-allocatable: upstream's "Memory Limits ... attempt to deploy past allocatable memory
// limits should fail deployments of pods once there isn't enough memory"
// (test/e2e/windows/memory_limits.go): upstream fills each Windows node to its allocatable memory
// and sees one more pod end at FailedScheduling. We provoke it without filling a node: a pod that
// requests more memory than one Windows node's allocatable, pinned to that node by node affinity
// (so the scheduler must judge it there, and no autoscaler could make a node that matches), gets
// FailedScheduling "Insufficient memory". The control: a pod requesting a little memory was
// scheduled by the scheduler to that node and runs. The oversized pod is created by the probe, not
// planned as a fixture (the run's capacity planning would rightly call it unplaceable), and is
// deleted as soon as the scheduler has answered.

import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { permissions } from '../../cluster/permission.ts';
import { supported } from '../expect.ts';
import { MeansError } from '../../cluster/meansError.ts';
import { createPodLike } from '../kit/podCopy.ts';
import { control, meansOfStart, podStarted } from '../kit/observe.ts';
import { describeSettled, fixturePodReady, readyOrEvent } from '../kit/podWaits.ts';
import { formatBytes } from '../kit/formatBytes.ts';
import { parseQuantity } from '../../../util/quantity.ts';
import { cite, sources } from '../../facts/sources.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const FIT = 'mem-fit';
const PAST = 'mem-past-allocatable';
/** How far past the node's allocatable the pod asks (upstream's extra pod asks 1Gi past a full node). */
const OVER = 2 ** 30;

/** The pod of the control, changed to ask for `bytes` of memory on `node` only (node affinity, not nodeName). */
export function pastAllocatablePod(pod: V1Pod, node: string, bytes: number): void {
  const memory = `${Math.ceil(bytes / 2 ** 20)}Mi`;
  for (const c of pod.spec!.containers) c.resources = { requests: { memory }, limits: { memory } };
  delete pod.spec!.nodeName;
  pod.spec!.affinity = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
    },
  };
}

async function pastAllocatableProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, FIT, `pod ${FIT} (requests ${ctx.fixture(FIT).spec.params?.memory} of memory)`);
  if (!r.ok) return r.observation;
  const nodeName = r.pod.spec!.nodeName!;
  const fits = podStarted(r.pod, `, placed by the scheduler with a memory request`);
  const node: V1Node = await ctx.kube.core.readNode({ name: nodeName });
  const allocatable = parseQuantity(node.status?.allocatable?.memory);
  if (allocatable === undefined) throw new Error(`node ${nodeName} reports no allocatable memory`);
  const want = allocatable + OVER;
  ctx.step(`creating pod ${PAST} requesting ${formatBytes(want)} (allocatable of ${nodeName} is ${formatBytes(allocatable)}), affine to ${nodeName} only`);
  await createPodLike(ctx, FIT, PAST, p => pastAllocatablePod(p, nodeName, want));
  try {
    const s = await readyOrEvent(ctx, PAST, ['FailedScheduling', 'Scheduled']);
    const evidence: EvidenceItem[] = [
      `node ${nodeName}: allocatable memory ${node.status?.allocatable?.memory} (${formatBytes(allocatable)})`,
      `pod ${FIT} Ready on ${nodeName}`,
      describeSettled(PAST, s),
    ];
    const message = s.kind === 'event' ? s.message : s.kind === 'failed' ? s.error.message : '';
    const bound = s.kind === 'ready' ? s.pod.spec?.nodeName : s.kind === 'failed' ? s.error.pod.spec?.nodeName : undefined;
    const failedScheduling =
      (s.kind === 'event' && s.reason === 'FailedScheduling') || (s.kind === 'failed' && s.error.reason === 'FailedScheduling' && !bound);
    if (failedScheduling && /Insufficient memory/.test(message))
      return {
        works: true,
        control: fits,
        summary: `pod ${PAST} (${formatBytes(want)}, past ${nodeName}'s allocatable ${formatBytes(allocatable)}) was not scheduled: FailedScheduling "Insufficient memory"; ${FIT} with a small request runs there`,
        evidence,
        node: nodeName,
      };
    // Not scheduled for another reason (taints, affinity): the harness's placement, not memory.
    if (failedScheduling) throw new MeansError('scheduling', `pod ${PAST} was not scheduled for another reason than memory: ${message}`);
    if (s.kind === 'event' && s.reason === 'Scheduled') return regressed(nodeName, want, allocatable, `Scheduled: ${s.message}`, evidence, fits);
    if (bound) return regressed(bound, want, allocatable, s.kind === 'failed' ? `${s.error.reason}: ${s.error.message}` : 'Ready', evidence, fits);
    if (s.kind === 'failed') throw meansOfStart(PAST, s.error) ?? s.error;
    throw new Error(`pod ${PAST}: neither scheduled nor FailedScheduling`);
  } finally {
    // A Pending pod the scheduler keeps retrying: gone at once, not left to the namespace's deletion.
    await ctx.kube.core.deleteNamespacedPod({ namespace: ctx.namespace, name: PAST, gracePeriodSeconds: 0 }).catch(() => undefined);
  }
}

function regressed(node: string, want: number, allocatable: number, what: string, evidence: EvidenceItem[], fits: ReturnType<typeof control>): Observation {
  return {
    works: false,
    control: fits,
    summary:
      `pod ${PAST} requesting ${formatBytes(want)} was bound to ${node} (allocatable ${formatBytes(allocatable)}) instead of failing to schedule: ${what}`.slice(
        0,
        400,
      ),
    evidence,
    node,
  };
}

export const features: Feature[] = [
  {
    id: 'res.past-allocatable',
    area: 'resources',
    title: "A pod requesting more memory than a Windows node's allocatable fails to schedule there (Insufficient memory)",
    access: [...permissions('', 'nodes', ['get'], 'cluster'), ...permissions('', 'pods', ['delete'], 'namespace')],
    needs: ['windows-node'],
    fixtures: [{ id: FIT, template: 'memory-request', os: 'windows', params: { memory: '100Mi' } }],
    expect: () =>
      supported(
        "the scheduler counts memory requests against a Windows node's allocatable: a pod asking for more gets FailedScheduling (Insufficient memory)",
        sources(
          cite.e2eTest(
            'memory_limits.go',
            "Memory Limits attempt to deploy past allocatable memory limits should fail deployments of pods once there isn't enough memory",
          ),
          cite.doc('concepts/configuration/windows-resource-management', 'Memory reservations'),
        ),
      ),
    probe: pastAllocatableProbe,
  },
];
