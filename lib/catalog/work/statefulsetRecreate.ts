// work.statefulset-recreate: upstream test/e2e/windows/statefulset.go "StatefulSets should have the
// ability to delete and recreate pods for StatefulSets which preserve their ability to serve as
// routed endpoints for services": a pod of a Windows StatefulSet is deleted, its controller makes
// it again under the same name, and its stable DNS name follows it (resolves to the new pod IP and
// answers as that pod). Upstream waits for the pod to run again and counts the set's pods; we also
// reach the new pod by its per-pod name, as work.statefulset does before any deletion.

import type { V1Pod } from '@kubernetes/client-node';
import { listAll } from '../../cluster/list.ts';
import { permissions } from '../../cluster/permission.ts';
import { isPodReady } from '../../cluster/podState.ts';
import { PodStartError, waitForPodCondition, waitForPodGone } from '../../cluster/podWait.ts';
import { asMeansError } from '../../cluster/meansError.ts';
import { cite, sources } from '../../facts/sources.ts';
import { supported } from '../expect.ts';
import { control, meansOfStart, meansOfWorkload, probeUntilPass } from '../kit/observe.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { serviceSuffix, statefulSetReady } from './statefulset.ts';

const NAME = 'statefulset-recreate';
const CLIENT = `${NAME}-0`;
const TARGET = `${NAME}-1`;

const describePod = (p: V1Pod | undefined) =>
  p ? `pod ${p.metadata?.name} uid ${p.metadata?.uid} ip ${p.status?.podIP ?? '-'} on ${p.spec?.nodeName ?? '-'}` : 'no pod';

/** The addresses after nslookup's answer ("Name:") line: the record's, not the server's. */
function answerAddresses(stdout: string): string {
  const at = stdout.search(/^\s*Name:/m);
  return at < 0 ? '' : stdout.slice(at);
}

/** From CLIENT: `fqdn` resolves to `ip` and GET /hostname answers as TARGET (bounded retries). */
async function reachByName(ctx: CheckContext, fqdn: string, ip: string | undefined, evidence: EvidenceItem[]): Promise<string[]> {
  const t = ctx.podTransport(CLIENT, 'windows');
  const problems: string[] = [];
  ctx.step(`nslookup ${fqdn} from ${CLIENT} (expecting ${ip})`);
  const lookup = await probeUntilPass(ctx, t, { kind: 'dns-lookup', name: fqdn });
  evidence.push(lookup.evidence);
  if (!lookup.ok) problems.push(`${fqdn} did not resolve: ${lookup.detail}`);
  else if (ip && !answerAddresses(lookup.evidence.stdout).includes(ip)) problems.push(`${fqdn} resolved, but not to the pod's IP ${ip}`);
  ctx.step(`GET http://${fqdn}:8080/hostname from ${CLIENT}`);
  const r = await probeUntilPass(ctx, t, { kind: 'http-get', url: `http://${fqdn}:8080/hostname` });
  evidence.push(r.evidence);
  const answered = r.evidence.stdout.trim();
  if (!r.ok) problems.push(`${CLIENT} → ${fqdn}: ${r.detail}`);
  else if (answered !== TARGET) problems.push(`${fqdn} answered as "${answered}", not ${TARGET}`);
  return problems;
}

async function statefulSetRecreateProbe(ctx: CheckContext): Promise<Observation> {
  const evidence: EvidenceItem[] = [];
  const notReady = await statefulSetReady(ctx, NAME, evidence);
  if (notReady) return notReady;
  const before = await ctx.kube.core.readNamespacedPod({ namespace: ctx.namespace, name: TARGET });
  evidence.push(`before: ${describePod(before)}`);
  const node = before.spec?.nodeName;
  // Windows treats a dotted name as an FQDN (no search-list devolution): use the full name.
  const fqdn = `${TARGET}.${NAME}.${await serviceSuffix(ctx, CLIENT, evidence)}`;
  // Control: the per-pod name answers before the deletion.
  const first = await reachByName(ctx, fqdn, before.status?.podIP, evidence);
  const ctl = control(
    !first.length,
    first.length ? `before the deletion: ${first.join('; ')}` : `${fqdn} resolved to ${before.status?.podIP} and answered before the deletion`,
  );
  if (first.length) return { works: false, summary: first.join('; '), evidence, node, control: ctl };

  ctx.step(`deleting pod ${TARGET} and watching until it is gone`);
  await ctx.kube.core.deleteNamespacedPod({ namespace: ctx.namespace, name: TARGET });
  await waitForPodGone(ctx.kube, ctx.namespace, TARGET, before.metadata?.uid, ctx.options.timeouts.podStart, { signal: ctx.signal });
  ctx.step(`watching for the StatefulSet controller to make ${TARGET} again and for it to be Ready`);
  let after: V1Pod;
  try {
    after = await waitForPodCondition(
      ctx.kube,
      ctx.namespace,
      TARGET,
      'made again and Ready',
      p => p.metadata?.uid !== before.metadata?.uid && isPodReady(p),
      ctx.options.timeouts.podStart,
      { signal: ctx.signal },
    );
  } catch (e) {
    // Made again but kept from starting by the harness's means (no room left on the node, a
    // pull, a refused watch): error naming them, not a verdict on the StatefulSet controller.
    const means =
      e instanceof PodStartError ? meansOfStart(TARGET, e) : (asMeansError(e) ?? (await meansOfWorkload(ctx, `app=${NAME}`, `StatefulSet ${NAME}`)));
    if (means) throw means;
    const pods = (await listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector: `app=${NAME}`, ...q }))).items;
    const seen = pods.map(p => describePod(p)).join('; ') || 'none';
    return {
      works: false,
      summary: `${TARGET} was not made again and Ready: ${(e as Error).message}`,
      evidence: [...evidence, `pods of the set: ${seen}`],
      node,
      control: ctl,
    };
  }
  evidence.push(`after: ${describePod(after)}`);
  const problems = await reachByName(ctx, fqdn, after.status?.podIP, evidence);
  return problems.length
    ? {
        works: false,
        summary: `${TARGET} was made again (${after.status?.podIP}), but ${problems.join('; ')}`,
        evidence,
        node: after.spec?.nodeName,
        control: ctl,
      }
    : {
        works: true,
        summary: `${TARGET} was deleted and made again (${before.status?.podIP} → ${after.status?.podIP}); ${fqdn} resolves to the new pod and answers`,
        evidence,
        node: after.spec?.nodeName,
        control: ctl,
      };
}

export const features: Feature[] = [
  {
    id: 'work.statefulset-recreate',
    area: 'workloads',
    title: 'StatefulSet pod deleted: made again under its name, its per-pod DNS name follows',
    needs: ['windows-node'],
    subject: ['statefulset-controller'],
    access: permissions('', 'pods', ['delete'], 'namespace'),
    fixtures: [{ id: NAME, template: 'statefulset', os: 'windows' }],
    expect: () =>
      supported(
        'the StatefulSet controller makes a deleted Windows pod again under its name, and its per-pod DNS record follows the new pod IP',
        sources(
          cite.e2eTest(
            'statefulset.go',
            'StatefulSets should have the ability to delete and recreate pods for StatefulSets which preserve their ability to serve as routed endpoints for services',
          ),
          cite.doc('concepts/workloads/controllers/statefulset', 'Stable Network ID'),
          cite.intro(),
        ),
      ),
    probe: statefulSetRecreateProbe,
  },
];
