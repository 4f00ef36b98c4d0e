// Scheduling and placement (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Scheduling and placement").

import { WaitTimeoutError } from '../../cluster/watch.ts';
import { schedulableWindowsNodes, windowsNodes } from '../../discovery/nodes.ts';
import { FixtureError } from '../../fixtures/errors.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import { MeansError } from '../../cluster/meansError.ts';
import { createPodLike } from '../kit/podCopy.ts';
import { control, fieldRejection, nodeOsOf, notStarted } from '../kit/observe.ts';
import { podSettles, podsScheduled } from '../kit/podWaits.ts';
import { describeStage, onByDefault, POD_OS_FIELD } from '../../facts/kubernetes.ts';
import type { CheckContext, Control, Feature, Observation } from '../types.ts';
import { cite, sources } from '../../facts/sources.ts';

const BETA_OS = 'beta.kubernetes.io/os';

/** A pod must land on a node of `os`; not landing (FailedScheduling) means it did not work. */
async function landsOn(ctx: CheckContext, pod: string, os: 'windows' | 'linux'): Promise<Observation> {
  ctx.fixture(pod);
  ctx.step(`waiting for pod ${pod} to be scheduled`);
  const r = await podSettles(ctx, pod, 'scheduled');
  if (!r.ok) return notStarted(pod, r.error);
  const node = r.pod.spec?.nodeName;
  const seenOs = nodeOsOf(ctx, node);
  return { works: seenOs === os, summary: `pod ${pod} was scheduled to ${seenOs} node ${node}`, evidence: [`pod ${pod} → node ${node} (${seenOs})`], node };
}

/**
 * Control for a selector that kept a pod off every node: a copy of the pod selecting
 * kubernetes.io/os=windows instead is scheduled (so Windows nodes could take it).
 */
async function osLabelControl(ctx: CheckContext, fixtureId: string, dropKey: string): Promise<Control> {
  const name = `${fixtureId}-control`;
  ctx.step(`control: pod ${name} selecting kubernetes.io/os=windows instead of ${dropKey}`);
  await createPodLike(ctx, fixtureId, name, pod => {
    const sel = { ...pod.spec!.nodeSelector };
    delete sel[dropKey];
    pod.spec!.nodeSelector = { ...sel, 'kubernetes.io/os': 'windows' };
  });
  const r = await podSettles(ctx, name, 'scheduled');
  if (!r.ok) return control(false, `the control pod ${name} was not scheduled either: ${r.error.reason}`, [r.error.message]);
  return control(nodeOsOf(ctx, r.pod.spec?.nodeName) === 'windows', `the control pod ${name} was scheduled to ${r.pod.spec?.nodeName}`);
}

/** Every pod of a pause-set fixture must land on a node of `os`. */
async function allLandOn(ctx: CheckContext, set: string, os: 'windows' | 'linux'): Promise<Observation> {
  const replicas = ctx.fixture(set).objects.filter(o => o.kind === 'Pod').length;
  ctx.step(`waiting for the ${replicas} pods of ${set} to be scheduled`);
  const r = await podsScheduled(ctx, `app=${set}`, replicas);
  const placed = r.pods.map(p => `${p.metadata?.name} → ${p.spec?.nodeName ?? 'unscheduled'} (${nodeOsOf(ctx, p.spec?.nodeName)})`);
  if (!r.ok) return { works: false, summary: `not every pod was scheduled: ${r.reason}`, evidence: placed };
  const wrong = r.pods.filter(p => nodeOsOf(ctx, p.spec?.nodeName) !== os);
  return wrong.length
    ? {
        works: false,
        summary: `${wrong.length} of ${replicas} pods landed on non-${os} nodes: ${wrong.map(p => p.spec?.nodeName).join(', ')}`,
        evidence: placed,
        node: wrong[0].spec?.nodeName,
      }
    : { works: true, summary: `all ${replicas} pods landed on ${os} nodes`, evidence: placed, node: r.pods[0]?.spec?.nodeName };
}

export const features: Feature[] = [
  {
    id: 'sched.os-selector',
    area: 'scheduling',
    title: 'Pod with nodeSelector kubernetes.io/os=windows lands on a Windows node only',
    needs: ['windows-node'],
    subject: ['scheduling'],
    fixtures: [{ id: 'os-selector', template: 'pause-set', os: 'windows', pin: 'none', params: { selectorKey: 'kubernetes.io/os', os: 'windows' } }],
    expect: () => supported('the kubelet labels every node with kubernetes.io/os', sources(cite.intro(), cite.userGuide())),
    probe: ctx => allLandOn(ctx, 'os-selector', 'windows'),
  },
  {
    id: 'sched.os-selector-beta',
    area: 'scheduling',
    title: 'The legacy beta.kubernetes.io/os=windows selector',
    needs: ['windows-node'],
    subject: ['scheduling'],
    fixtures: [{ id: 'os-selector-beta', template: 'windows-pause', os: 'windows', pin: 'none', params: { selectorKey: BETA_OS } }],
    expect: c => {
      const win = schedulableWindowsNodes(c.nodes);
      const lacking = win.filter(n => n.labels[BETA_OS] !== 'windows').map(n => n.name);
      if (lacking.length === win.length)
        return limited(`no schedulable Windows node carries the deprecated ${BETA_OS} label`, sources(cite.v19Guide(), cite.intro()));
      return supported(
        lacking.length
          ? `the kubelet still sets the deprecated ${BETA_OS} label (not on ${lacking.join(', ')})`
          : `the kubelet still sets the deprecated ${BETA_OS} label on every Windows node`,
        sources(cite.v19Guide(), cite.intro()),
      );
    },
    probe: async ctx => {
      let seen: Observation;
      try {
        seen = await landsOn(ctx, 'os-selector-beta', 'windows');
      } catch (e) {
        if (!(e instanceof MeansError && e.means === 'scheduling')) throw e;
        seen = { works: false, summary: e.message, evidence: [e.message] };
      }
      const ctl = seen.works ? control(true, `pod os-selector-beta was scheduled to ${seen.node}`) : await osLabelControl(ctx, 'os-selector-beta', BETA_OS);
      return { ...seen, control: ctl };
    },
  },
  {
    id: 'sched.linux-stays-linux',
    area: 'scheduling',
    title: 'Pods selecting Linux never land on Windows nodes',
    needs: ['linux-node'],
    subject: ['scheduling'],
    fixtures: [{ id: 'linux-stays-linux', template: 'pause-set', os: 'linux', params: { selectorKey: 'kubernetes.io/os', os: 'linux' } }],
    expect: () => supported('kubernetes.io/os=linux selects only Linux nodes', sources(cite.intro(), cite.v122Intro())),
    probe: ctx => allLandOn(ctx, 'linux-stays-linux', 'linux'),
  },
  {
    id: 'sched.pod-os-field',
    area: 'scheduling',
    title: 'spec.os.name=windows accepted and scheduled to Windows',
    needs: ['windows-node'],
    subject: ['scheduling'],
    fixtures: [{ id: 'pod-os-field', template: 'windows-os-field', os: 'windows', pin: 'none' }],
    // Beta (1.24) turns the gate on by default; before that the API server drops spec.os.
    expect: c =>
      onByDefault(POD_OS_FIELD, c.version)
        ? supported(describeStage(POD_OS_FIELD, c.version), sources(cite.intro(), POD_OS_FIELD.source))
        : limited(`${describeStage(POD_OS_FIELD, c.version)}: the API server drops the field`, sources(cite.intro(), POD_OS_FIELD.source)),
    probe: async ctx => {
      try {
        ctx.fixture('pod-os-field');
      } catch (e) {
        if (!(e instanceof FixtureError)) throw e;
        // Only a 422 naming spec.os is the API's answer about the field.
        const refused = fieldRejection(e, /^spec\.os\b/);
        return { works: false, summary: `the API server rejected spec.os: ${refused.message}`, evidence: [refused.message], control: refused.control };
      }
      const seen = await landsOn(ctx, 'pod-os-field', 'windows');
      const pod = await ctx.kube.core.readNamespacedPod({ namespace: ctx.namespace, name: 'pod-os-field' });
      const kept = pod.spec?.os?.name === 'windows';
      // Control: the pod was accepted and read back, so its stored spec is what the API kept.
      const stored = control(true, `pod pod-os-field was accepted and read back (spec.os ${kept ? 'kept' : 'absent'})`);
      return kept
        ? { ...seen, control: stored }
        : { ...seen, works: false, summary: `spec.os was dropped by the API server (${seen.summary})`, control: stored };
    },
  },
  {
    id: 'sched.taint-toleration',
    area: 'scheduling',
    title: 'The Windows taint keeps untolerating pods off Windows nodes',
    needs: ['tainted-windows-node'],
    subject: ['scheduling'],
    fixtures: [{ id: 'taint-toleration', template: 'windows-pause', os: 'windows', pin: 'none', tolerate: false, params: { selectorKey: 'kubernetes.io/os' } }],
    expect: c => {
      const tainted = windowsNodes(c.nodes).filter(n => n.taints.some(t => t.effect === 'NoSchedule' || t.effect === 'NoExecute'));
      return tainted.length
        ? supported(
            `Windows nodes ${tainted.map(n => n.name).join(', ')} are tainted; the scheduler honours NoSchedule`,
            sources(cite.intro(), cite.userGuide('taints and tolerations')),
          )
        : notApplicable('no Windows node is tainted', [cite.intro()]);
    },
    probe: async ctx => {
      ctx.fixture('taint-toleration');
      ctx.step('waiting for the scheduler to place or reject pod taint-toleration');
      let r;
      try {
        r = await podSettles(ctx, 'taint-toleration', 'scheduled', ctx.options.timeouts.podUnschedulable);
      } catch (e) {
        // No node and no scheduler verdict yet: the taint kept it off all the same.
        if (e instanceof WaitTimeoutError) return { works: true, summary: 'the pod was still unscheduled when the wait ended', evidence: [e.message] };
        throw e;
      }
      if (!r.ok) {
        return r.error.reason === 'FailedScheduling'
          ? { works: true, summary: 'the pod stayed Pending: FailedScheduling because of the taint', evidence: [r.error.message] }
          : notStarted('taint-toleration', r.error);
      }
      const nodeName = r.pod.spec?.nodeName;
      const node = ctx.cluster.nodes.find(n => n.name === nodeName);
      const untolerated = node?.taints.filter(t => t.effect === 'NoSchedule' || t.effect === 'NoExecute') ?? [];
      return untolerated.length
        ? {
            works: false,
            summary: `the pod without tolerations was scheduled to tainted node ${nodeName} (${untolerated.map(t => `${t.key}=${t.value ?? ''}:${t.effect}`).join(', ')})`,
            evidence: [`pod taint-toleration → ${nodeName}`],
            node: nodeName,
          }
        : { works: true, summary: `the pod went to untainted node ${nodeName}`, evidence: [`pod taint-toleration → ${nodeName}`], node: nodeName };
    },
  },
  {
    id: 'sched.runtimeclass-scheduling',
    area: 'scheduling',
    title: 'RuntimeClass scheduling injects the Windows selector',
    needs: ['windows-node'],
    subject: ['scheduling'],
    fixtures: [
      {
        id: 'runtimeclass-scheduling',
        template: 'runtimeclass-windows',
        os: 'windows',
        pin: 'none',
        tolerate: false,
        params: { runtimeClass: 'wincheck-windows-{{runId}}' },
      },
    ],
    expect: () => supported('RuntimeClass scheduling.nodeSelector is merged into pods (GA since 1.16)', sources(cite.intro(), cite.userGuide('RuntimeClass'))),
    probe: async ctx => {
      const seen = await landsOn(ctx, 'runtimeclass-scheduling', 'windows');
      const pod = await ctx.kube.core.readNamespacedPod({ namespace: ctx.namespace, name: 'runtimeclass-scheduling' });
      const injected = pod.spec?.nodeSelector?.['kubernetes.io/os'] === 'windows';
      return injected ? seen : { ...seen, works: false, summary: `the RuntimeClass nodeSelector was not injected into the pod (${seen.summary})` };
    },
  },
];
