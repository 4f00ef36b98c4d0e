// Workloads (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Workloads"): the first three rows; the others are added here too.

import { permissions } from '../../cluster/permission.ts';
import type { V1Deployment } from '@kubernetes/client-node';
import { apiStatusCode } from '../../cluster/apiError.ts';
import { describeDaemonSet, describeDeployment, waitForDaemonSetReady, waitForDeploymentComplete } from '../../cluster/workloadWait.ts';
import { WaitTimeoutError } from '../../cluster/watch.ts';
import { schedulableWindowsNodes } from '../../discovery/nodes.ts';
import { supported } from '../expect.ts';
import { meansOfWorkload, notStarted, probeUntilPass } from '../kit/observe.ts';
import { podSettles } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature } from '../types.ts';
import { listAll } from '../../cluster/list.ts';
import { cite, sources } from '../../facts/sources.ts';

/** Read-modify-replace with one retry on a write conflict (the controller updates status too). */
async function updateDeployment(ctx: CheckContext, name: string, change: (d: V1Deployment) => void): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const d = await ctx.kube.apps.readNamespacedDeployment({ namespace: ctx.namespace, name });
    change(d);
    try {
      await ctx.kube.apps.replaceNamespacedDeployment({ namespace: ctx.namespace, name, body: d });
      return;
    } catch (e) {
      if (apiStatusCode(e) !== 409 || attempt >= 3) throw new Error(`failed to update deployment ${name}`, { cause: e });
    }
  }
}

/** Waits for the rollout; a timeout is an observation (the feature did not work), not an error. */
async function rollout(ctx: CheckContext, name: string, evidence: EvidenceItem[]): Promise<string | undefined> {
  try {
    const d = await waitForDeploymentComplete(ctx.kube, ctx.namespace, name, ctx.options.timeouts.rollout, ctx.signal, {
      unschedulableGraceMs: ctx.options.timeouts.podUnschedulable,
      controllerObserveMs: ctx.options.timeouts.controllerObserve,
    });
    evidence.push(`deployment ${name}: ${describeDeployment(d)}`);
    return undefined;
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    const means = await meansOfWorkload(ctx, `app=${name}`, `deployment ${name}`);
    if (means) throw means;
    return e.message;
  }
}

async function podsOf(ctx: CheckContext, app: string) {
  const list = await listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector: `app=${app}`, ...q }));
  return list.items.filter(p => !p.metadata?.deletionTimestamp);
}

export const features: Feature[] = [
  {
    id: 'work.iis-pod',
    area: 'workloads',
    title: 'An IIS pod runs and answers HTTP 200',
    needs: ['windows-node', 'linux-node'],
    fixtures: [
      { id: 'iis', template: 'iis-pod', os: 'windows' },
      { id: 'helper', template: 'linux-helper', os: 'linux' },
    ],
    expect: () => supported('IIS on a servercore image matching the node build serves port 80', sources(cite.v19Guide('IIS pod'), cite.intro())),
    probe: async ctx => {
      ctx.fixture('iis');
      ctx.fixture('helper');
      ctx.step('waiting for pods iis and helper to be Ready');
      const [iis, helper] = await Promise.all([podSettles(ctx, 'iis', 'ready'), podSettles(ctx, 'helper', 'ready')]);
      if (!helper.ok) throw new Error(`the Linux helper pod did not start: ${helper.error.message}`);
      if (!iis.ok) return notStarted('iis', iis.error);
      const ip = iis.pod.status?.podIP;
      const node = iis.pod.spec?.nodeName;
      if (!ip) return { works: false, summary: 'pod iis is Ready but has no pod IP', evidence: ['pod iis: Ready, status.podIP empty'], node };
      ctx.step(`GET http://${ip}/ from the Linux helper`);
      const r = await probeUntilPass(ctx, ctx.podTransport('helper', 'linux'), { kind: 'http-get', url: `http://${ip}:80/` });
      return { works: r.ok, summary: r.ok ? `IIS at ${ip} answered` : `IIS at ${ip} did not answer: ${r.detail}`, evidence: [r.evidence], node };
    },
  },
  {
    id: 'work.deployment',
    area: 'workloads',
    title: 'Deployment with 3 replicas on Windows nodes: ready, scaled, rolled',
    access: permissions('apps', 'deployments', ['update'], 'namespace'),
    needs: ['windows-node'],
    subject: ['workload-controller', 'deployment-controller', 'replicaset-controller'],
    fixtures: [{ id: 'deployment', template: 'deployment', os: 'windows' }],
    expect: () => supported('Deployments are supported on Windows nodes', sources(cite.v19Guide('Deployment'), cite.intro())),
    probe: async ctx => {
      ctx.fixture('deployment');
      const evidence: EvidenceItem[] = [];
      ctx.step('waiting for 3 ready replicas');
      let failed = await rollout(ctx, 'deployment', evidence);
      if (failed) return { works: false, summary: `3 replicas did not become ready: ${failed}`, evidence: [...evidence, failed] };
      ctx.step('scaling to 4 replicas');
      await updateDeployment(ctx, 'deployment', d => {
        d.spec!.replicas = 4;
      });
      failed = await rollout(ctx, 'deployment', evidence);
      if (failed) return { works: false, summary: `scaling to 4 did not complete: ${failed}`, evidence: [...evidence, failed] };
      ctx.step('rolling update (pod template annotation)');
      await updateDeployment(ctx, 'deployment', d => {
        const t = d.spec!.template;
        t.metadata ??= {};
        t.metadata.annotations = { ...t.metadata.annotations, 'wincheck.io/rolled-at': new Date().toISOString() };
      });
      failed = await rollout(ctx, 'deployment', evidence);
      if (failed) return { works: false, summary: `the rolling update did not complete: ${failed}`, evidence: [...evidence, failed] };
      const pods = await podsOf(ctx, 'deployment');
      const offWindows = pods.filter(p => ctx.cluster.nodes.find(n => n.name === p.spec?.nodeName)?.os !== 'windows');
      evidence.push(`pods: ${pods.map(p => `${p.metadata?.name}@${p.spec?.nodeName}`).join(', ')}`);
      if (offWindows.length) return { works: false, summary: `${offWindows.length} pod(s) not on Windows nodes`, evidence };
      return { works: true, summary: '3 replicas ready, scaled to 4, rolled out', evidence, node: pods[0]?.spec?.nodeName };
    },
  },
  {
    id: 'work.daemonset',
    area: 'workloads',
    title: 'DaemonSet selecting Windows: one ready pod per schedulable Windows node, none on Linux',
    needs: ['windows-node'],
    subject: ['workload-controller', 'daemonset-controller'],
    fixtures: [{ id: 'daemonset', template: 'daemonset', os: 'windows', pin: 'none' }],
    expect: () => supported('DaemonSets are supported on Windows nodes', sources(cite.v19Guide('DaemonSet'), cite.intro())),
    probe: async ctx => {
      ctx.fixture('daemonset');
      const win = schedulableWindowsNodes(ctx.cluster.nodes).map(n => n.name);
      ctx.step(`waiting for ${win.length} ready pod(s)`);
      const evidence: EvidenceItem[] = [];
      try {
        const ds = await waitForDaemonSetReady(ctx.kube, ctx.namespace, 'daemonset', win.length, ctx.options.timeouts.rollout, ctx.signal, {
          unschedulableGraceMs: ctx.options.timeouts.podUnschedulable,
          controllerObserveMs: ctx.options.timeouts.controllerObserve,
        });
        evidence.push(`daemonset: ${describeDaemonSet(ds)}`);
      } catch (e) {
        if (!(e instanceof WaitTimeoutError)) throw e;
        const means = await meansOfWorkload(ctx, 'app=daemonset', 'daemonset daemonset');
        if (means) throw means;
        return { works: false, summary: e.message, evidence: [...evidence, e.message] };
      }
      const pods = await podsOf(ctx, 'daemonset');
      evidence.push(`pods: ${pods.map(p => `${p.metadata?.name}@${p.spec?.nodeName}`).join(', ')}`);
      const onNodes = pods.map(p => p.spec?.nodeName ?? '');
      const problems: string[] = [];
      const nonWindows = onNodes.filter(n => !ctx.cluster.nodes.some(x => x.name === n && x.os === 'windows'));
      if (nonWindows.length) problems.push(`pods on non-Windows nodes ${nonWindows.join(', ')}`);
      for (const n of win) {
        const count = onNodes.filter(x => x === n).length;
        if (count !== 1) problems.push(`${count} pods on ${n}`);
      }
      return problems.length
        ? { works: false, summary: problems.join('; '), evidence }
        : { works: true, summary: `one ready pod on each of ${win.join(', ')}`, evidence, node: win[0] };
    },
  },
];
