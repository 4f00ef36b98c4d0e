// net.service-churn: a ClusterIP Service over Windows netexec pods, deleted and created again
// under the same name (upstream sig-network service.go "should work after the service has been
// recreated", and "should be able to up and down services" for the deleted IP going quiet;
// windows-operational-readiness Core.Network "Services deleted and recreated"). A Windows pod
// reaches it first (the positive control), its old ClusterIP stops answering once it is gone,
// and the recreated Service answers at its new ClusterIP: the Windows kube-proxy removed the
// HNS load balancer and programmed the new one.

import type { KubernetesObject, V1Service } from '@kubernetes/client-node';
import { createObject } from '../../cluster/create.ts';
import { listAll } from '../../cluster/list.ts';
import { permissions } from '../../cluster/permission.ts';
import { watchUntil } from '../../cluster/watch.ts';
import { readyPods } from '../kit/podWaits.ts';
import { control } from '../kit/observe.ts';
import { clusterIPOf, readService, urlOf } from './addresses.ts';
import { httpAttempt } from './attempts.ts';
import { serviceChurnExpectation } from './expect.ts';
import { FX, SERVICE_PORT } from './netexec.ts';
import { controlPasses, steadyPeriod, warmupThenSteady, type Attempt } from './steady.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const SVC = FX.svcChurn.id;
const WIN_BACKENDS = [FX.winPeer.id, FX.winPeer2.id];

const describeService = (s: V1Service | undefined) =>
  s ? `service ${s.metadata?.name} uid ${s.metadata?.uid} clusterIP ${s.spec?.clusterIP}` : 'no service seen';

/** Watches until the Service named `SVC` is gone (`uid`) or present with another uid and a ClusterIP (`!uid`). */
function watchService(ctx: CheckContext, until: 'gone' | 'recreated', oldUid: string | undefined): Promise<V1Service | true> {
  const fieldSelector = `metadata.name=${SVC}`;
  let last: V1Service | undefined;
  const done = (s: V1Service | undefined): V1Service | true | undefined => {
    if (until === 'gone') return !s || s.metadata?.uid !== oldUid ? true : undefined;
    return s && s.metadata?.uid !== oldUid && s.spec?.clusterIP ? s : undefined;
  };
  return watchUntil<V1Service, V1Service | true>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ctx.namespace}/services`,
    fieldSelector,
    list: () => listAll(q => ctx.kube.core.listNamespacedService({ namespace: ctx.namespace, fieldSelector, ...q })),
    onList: items => done((last = items[0])),
    check: (s, type) => done((last = type === 'DELETED' ? undefined : s)),
    what: until === 'gone' ? `service ${SVC} to be deleted` : `service ${SVC} to be created again with a ClusterIP`,
    describe: () => describeService(last),
    timeoutMs: ctx.options.timeouts.podStart,
    signal: ctx.signal,
  });
}

/** The declared fixture's Service as rendered (run labels included), to create again. */
function renderedService(ctx: CheckContext): V1Service {
  const base = ctx.fixture(SVC).objects.find((o: KubernetesObject) => o.kind === 'Service') as V1Service | undefined;
  if (!base) throw new Error(`fixture ${SVC} has no Service`);
  const svc = structuredClone(base);
  svc.metadata = { name: SVC, namespace: ctx.namespace, labels: { ...base.metadata?.labels, ...ctx.labels } };
  if (svc.spec) {
    delete svc.spec.clusterIP;
    delete svc.spec.clusterIPs;
  }
  delete svc.status;
  return svc;
}

/** An attempt that passes when the GET fails: the deleted Service's address has gone quiet. */
async function refusedAttempt(ctx: CheckContext, t: ReturnType<CheckContext['podTransport']>, url: string): Promise<Attempt> {
  const a = await httpAttempt(ctx, t, url);
  return { ...a, ok: !a.ok, detail: a.ok ? `${a.detail} (still answering)` : a.detail };
}

async function serviceChurnProbe(ctx: CheckContext): Promise<Observation> {
  const ready = await readyPods(ctx, [FX.win.id, ...WIN_BACKENDS]);
  if (!ready.ok) return ready.observation;
  const node = ready.pods[FX.win.id].spec?.nodeName;
  const t = ctx.podTransport(FX.win.id, 'windows');
  const before = await readService(ctx, SVC);
  const oldUrl = urlOf(clusterIPOf(before), SERVICE_PORT);
  // Control: the Service answers from the Windows pod before it is deleted.
  ctx.step(`control: GET ${oldUrl} (${SVC} before deletion) from ${FX.win.id}`);
  const up = await controlPasses(ctx, `W → ClusterIP of ${SVC} before deletion (control)`, () => httpAttempt(ctx, t, oldUrl));
  const ctl = control(
    up.ok,
    up.ok ? `${FX.win.id} reached ${SVC} at ${oldUrl} before deletion` : `${SVC} did not answer before deletion: ${up.detail}`,
    up.evidence,
  );
  if (!up.ok) return { works: false, summary: up.detail, evidence: [describeService(before)], node, control: ctl };

  const evidence: EvidenceItem[] = [describeService(before)];
  ctx.step(`deleting service ${SVC} and watching until it is gone`);
  await ctx.kube.core.deleteNamespacedService({ namespace: ctx.namespace, name: SVC });
  await watchService(ctx, 'gone', before.metadata?.uid);
  ctx.step(`GET ${oldUrl} from ${FX.win.id} until it stops answering`);
  const down = await controlPasses(ctx, `W → deleted ${SVC} at ${oldUrl} stops answering`, () => refusedAttempt(ctx, t, oldUrl));
  evidence.push(...down.evidence);

  ctx.step(`creating service ${SVC} again and watching for its ClusterIP`);
  await createObject(ctx.kube, renderedService(ctx));
  const after = (await watchService(ctx, 'recreated', before.metadata?.uid)) as V1Service;
  evidence.push(describeService(after));
  const newUrl = urlOf(clusterIPOf(after), SERVICE_PORT);
  ctx.step(`GET ${newUrl} (${SVC} recreated) from ${FX.win.id}`);
  const back = await warmupThenSteady(ctx, `W → recreated ${SVC} at ${newUrl}`, () => httpAttempt(ctx, t, newUrl));
  evidence.push(...back.evidence);
  const problems = [...(down.ok ? [] : [`the deleted Service still answered: ${down.detail}`]), ...(back.ok ? [] : [back.detail])];
  return {
    works: problems.length === 0,
    summary: problems.length ? problems.join('; ') : `${oldUrl} went quiet once ${SVC} was deleted; ${back.detail}`,
    evidence,
    node,
    control: ctl,
  };
}

export const features: Feature[] = [
  {
    id: 'net.service-churn',
    area: 'networking',
    suite: 'services',
    title: 'Service deleted and recreated: a Windows pod reaches it again (rules come back)',
    needs: ['windows-node'],
    access: permissions('', 'services', ['delete'], 'namespace'),
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.svcChurn],
    designedWaitMs: steadyPeriod,
    expect: serviceChurnExpectation,
    probe: serviceChurnProbe,
  },
];
