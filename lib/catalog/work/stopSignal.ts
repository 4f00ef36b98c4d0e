// lifecycle.stopSignal on Windows pods (KEP-4960, upstream test/e2e/windows/container_stop_signals.go):
// with spec.os.name=windows the API server takes SIGTERM and SIGKILL and refuses any other signal
// with a 422 whose causes name the field. Server-side dry runs only: nothing is created.

import type { V1Pod } from '@kubernetes/client-node';
import { ApiException } from '@kubernetes/client-node';
import { apiStatusCode, statusCausesOf } from '../../cluster/apiError.ts';
import { asMeansError } from '../../cluster/meansError.ts';
import { CONTAINER_STOP_SIGNALS, k8sAtLeast } from '../../facts/kubernetes.ts';
import { notApplicable, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';

const FIELD = 'spec.containers[0].lifecycle.stopSignal';
/** Upstream's table: accepted, accepted, rejected, rejected. */
export const STOP_SIGNAL_CASES: { signal: string; accepted: boolean }[] = [
  { signal: 'SIGTERM', accepted: true },
  { signal: 'SIGKILL', accepted: true },
  { signal: 'SIGQUIT', accepted: false },
  { signal: 'SIGUSR1', accepted: false },
];

function stopSignalPod(ctx: CheckContext, signal: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `stop-signal-${signal.toLowerCase()}`, namespace: ctx.namespace, labels: { ...ctx.labels } },
    spec: {
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [{ name: 'test-container', image: 'registry.k8s.io/pause:3.10', lifecycle: { stopSignal: signal } }],
    },
  };
}

export type SignalVerdict = 'kept' | 'dropped' | 'refused-naming-field' | 'refused-otherwise';

/** How the API server answered one dry run. */
export function signalVerdict(created: V1Pod | undefined, error: unknown): { verdict: SignalVerdict; detail: string } {
  if (error === undefined) {
    const kept = (created?.spec?.containers[0]?.lifecycle as { stopSignal?: string } | undefined)?.stopSignal;
    return kept
      ? { verdict: 'kept', detail: `accepted, stopSignal ${kept} kept` }
      : { verdict: 'dropped', detail: 'accepted with lifecycle.stopSignal dropped' };
  }
  const code = apiStatusCode(error);
  const causes = error instanceof ApiException ? statusCausesOf(error.body) : [];
  const named = causes.find(c => c.startsWith(FIELD));
  return code === 422 && named
    ? { verdict: 'refused-naming-field', detail: `HTTP 422: ${named}` }
    : { verdict: 'refused-otherwise', detail: `HTTP ${code ?? '?'}: ${(causes.join('; ') || String(error)).slice(0, 300)}` };
}

async function stopSignalProbe(ctx: CheckContext): Promise<Observation> {
  ctx.step(`server-side dry runs of spec.os.name=windows pods with lifecycle.stopSignal ${STOP_SIGNAL_CASES.map(c => c.signal).join(', ')}`);
  const seen = await Promise.all(
    STOP_SIGNAL_CASES.map(async c => {
      try {
        const created = await ctx.kube.core.createNamespacedPod({ namespace: ctx.namespace, body: stopSignalPod(ctx, c.signal), dryRun: 'All' });
        return { ...c, ...signalVerdict(created, undefined) };
      } catch (e) {
        return { ...c, ...signalVerdict(undefined, e), error: e };
      }
    }),
  );
  const evidence = seen.map(s => `${s.signal}: ${s.verdict} — ${s.detail}`);
  const term = seen[0];
  if (term.verdict === 'dropped')
    return {
      works: false,
      notApplicable: `the API server dropped lifecycle.stopSignal (${CONTAINER_STOP_SIGNALS.name} is alpha from 1.33 and off by default): the gate is off here`,
      summary: 'lifecycle.stopSignal dropped',
      evidence,
    };
  // A refusal of SIGTERM that is not about the field (403, webhook) says nothing of the validation.
  if (term.verdict === 'refused-otherwise')
    throw asMeansError((term as { error?: unknown }).error, 'fixture', `the SIGTERM dry run was refused: ${term.detail}`)!;
  const wrong = seen.filter(s => (s.accepted ? s.verdict !== 'kept' : s.verdict !== 'refused-naming-field'));
  return {
    works: wrong.length === 0,
    summary: wrong.length
      ? `not as validation promises: ${wrong.map(s => `${s.signal} ${s.verdict}`).join(', ')}`
      : `SIGTERM and SIGKILL accepted and kept, SIGQUIT and SIGUSR1 refused (422 naming ${FIELD})`,
    evidence,
    control: control(term.verdict === 'kept', term.verdict === 'kept' ? 'a Windows pod with stopSignal SIGTERM is accepted with the field kept' : term.detail),
  };
}

export const features: Feature[] = [
  {
    id: 'work.stop-signal-windows',
    area: 'workloads',
    title: 'lifecycle.stopSignal on Windows pods: SIGTERM and SIGKILL only (server-side dry run)',
    needs: [],
    fixtures: [],
    expect: c =>
      k8sAtLeast(c.version, ...CONTAINER_STOP_SIGNALS.alpha)
        ? supported(
            `${CONTAINER_STOP_SIGNALS.name} exists from 1.33 (alpha, off by default; a dropped field is n/a at run time): with spec.os.name=windows only SIGTERM and SIGKILL validate`,
            CONTAINER_STOP_SIGNALS.source,
          )
        : notApplicable(
            `Kubernetes ${c.version.gitVersion} has no lifecycle.stopSignal: ${CONTAINER_STOP_SIGNALS.name} is alpha from 1.33`,
            CONTAINER_STOP_SIGNALS.source,
          ),
    probe: stopSignalProbe,
  },
];
