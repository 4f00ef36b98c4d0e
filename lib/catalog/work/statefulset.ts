// StatefulSet on Windows nodes: stable pod names, each reachable by its per-pod DNS name.

import type { V1StatefulSet } from '@kubernetes/client-node';
import { whileControllerActs } from '../../cluster/controllerObserved.ts';
import { withSchedulingGuard } from '../../cluster/workloadWait.ts';
import { watchUntil, WaitTimeoutError } from '../../cluster/watch.ts';
import { supported } from '../expect.ts';
import { meansOfWorkload, probeUntilPass } from '../kit/observe.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { listAll } from '../../cluster/list.ts';
import { ipconfigOf } from '../kit/ipconfig.ts';
import { cite, sources } from '../../facts/sources.ts';

const STATEFULSET_REPLICAS = 2;

/** The pod's "<namespace>.svc.<domain>" search suffix; cluster.local when ipconfig does not show one. */
export async function serviceSuffix(ctx: CheckContext, pod: string, evidence: EvidenceItem[]): Promise<string> {
  const { cfg } = await ipconfigOf(ctx, ctx.podTransport(pod, 'windows'));
  const suffix = cfg.searchList.find(s => s.toLowerCase().startsWith(`${ctx.namespace}.svc.`));
  evidence.push(
    suffix
      ? `search suffix from ipconfig /all in ${pod}: ${suffix}`
      : `no ${ctx.namespace}.svc.* search suffix in ipconfig /all of ${pod}; assuming cluster.local`,
  );
  return suffix ?? `${ctx.namespace}.svc.cluster.local`;
}

/**
 * Watches until the fixture's StatefulSet `name` has its replicas ready (evidence line pushed);
 * an Observation when it never does, a MeansError thrown when a pod or the controller cannot act.
 */
export async function statefulSetReady(ctx: CheckContext, name: string, evidence: EvidenceItem[]): Promise<Observation | undefined> {
  ctx.fixture(name);
  ctx.step(`waiting for statefulset ${name} to have ${STATEFULSET_REPLICAS} ready replicas`);
  try {
    // Ends early on evidence: a pod that fails for good or stays Unschedulable, a controller that never observes the set.
    const sts = await withSchedulingGuard(
      ctx.kube,
      ctx.namespace,
      `app=${name}`,
      `statefulset ${name}`,
      ctx.options.timeouts.podUnschedulable,
      ctx.signal,
      () =>
        whileControllerActs(ctx.kube, { namespace: ctx.namespace, kind: 'StatefulSet', name }, ctx.options.timeouts.controllerObserve, ctx.signal, () =>
          watchUntil<V1StatefulSet, V1StatefulSet>({
            kube: ctx.kube,
            path: `/apis/apps/v1/namespaces/${ctx.namespace}/statefulsets`,
            fieldSelector: `metadata.name=${name}`,
            list: () => listAll(q => ctx.kube.apps.listNamespacedStatefulSet({ namespace: ctx.namespace, fieldSelector: `metadata.name=${name}`, ...q })),
            check: s => ((s.status?.readyReplicas ?? 0) >= STATEFULSET_REPLICAS ? s : undefined),
            what: `statefulset ${ctx.namespace}/${name} to have ${STATEFULSET_REPLICAS} ready replicas`,
            describe: s => (s ? `replicas ${s.status?.replicas ?? 0}, ready ${s.status?.readyReplicas ?? 0}` : 'statefulset not seen'),
            timeoutMs: ctx.options.timeouts.rollout,
            signal: ctx.signal,
          }),
        ),
    );
    evidence.push(`statefulset ${name}: replicas ${sts.status?.replicas}, ready ${sts.status?.readyReplicas}`);
    return undefined;
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    const means = await meansOfWorkload(ctx, `app=${name}`, `statefulset ${name}`);
    if (means) throw means;
    return { works: false, summary: e.message, evidence: [...evidence, e.message] };
  }
}

async function statefulSetProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'statefulset';
  const evidence: EvidenceItem[] = [];
  const notReady = await statefulSetReady(ctx, name, evidence);
  if (notReady) return notReady;
  const pods = (await listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector: `app=${name}`, ...q }))).items;
  const names = pods.map(p => p.metadata?.name ?? '').sort();
  const wanted = Array.from({ length: STATEFULSET_REPLICAS }, (_, i) => `${name}-${i}`);
  evidence.push(`pods: ${pods.map(p => `${p.metadata?.name}@${p.spec?.nodeName}`).join(', ')}`);
  if (wanted.some(w => !names.includes(w))) return { works: false, summary: `pod names ${names.join(', ')} are not the stable ${wanted.join(', ')}`, evidence };
  const node = pods[0]?.spec?.nodeName;
  // Windows treats a dotted name as an FQDN (no search-list devolution): use the full name.
  const suffix = await serviceSuffix(ctx, wanted[0], evidence);
  const failures: string[] = [];
  for (const [from, to] of [
    [wanted[0], wanted[1]],
    [wanted[1], wanted[0]],
  ]) {
    const fqdn = `${to}.${name}.${suffix}`;
    ctx.step(`GET http://${fqdn}:8080/hostname from ${from}`);
    const r = await probeUntilPass(ctx, ctx.podTransport(from, 'windows'), { kind: 'http-get', url: `http://${fqdn}:8080/hostname` });
    evidence.push(r.evidence);
    const answered = r.evidence.stdout.trim();
    if (!r.ok) failures.push(`${from} → ${fqdn}: ${r.detail}`);
    else if (answered !== to) failures.push(`${fqdn} answered as "${answered}", not ${to}`);
  }
  return failures.length
    ? { works: false, summary: failures.join('; '), evidence, node }
    : { works: true, summary: `stable names ${wanted.join(', ')}; each resolves and answers by its per-pod DNS name`, evidence, node };
}

export const features: Feature[] = [
  {
    id: 'work.statefulset',
    area: 'workloads',
    title: 'StatefulSet on Windows: stable pod names and per-pod DNS',
    needs: ['windows-node'],
    subject: ['statefulset-controller'],
    fixtures: [{ id: 'statefulset', template: 'statefulset', os: 'windows' }],
    expect: () =>
      supported(
        'StatefulSets run on Windows nodes with stable names and per-pod DNS records (the v1.9 docs listed them as unsupported)',
        sources(cite.intro(), cite.v19Guide('v1.9 limitation, since lifted')),
      ),
    probe: statefulSetProbe,
  },
];
