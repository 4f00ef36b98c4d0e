// One feature, start to verdict: needs → expectation → probe (with a deadline) → outcome.
// Everything that leaves here is redacted.

import { outcomeOf } from '../catalog/outcome.ts';
import { errorText } from '../../util/errorText.ts';
import { unmetNeed } from '../catalog/needs.ts';
import { suiteOf } from '../catalog/registry.ts';
import type { CheckResult, Expectation, Feature, Observation } from '../catalog/types.ts';
import { FixtureError } from '../fixtures/errors.ts';
import { admissionRefusal } from '../cluster/admissionRefusal.ts';
import { asMeansError } from '../cluster/meansError.ts';
import { withCapacityNumbers } from './capacity.ts';
import { makeCheckContext, type CheckInputs } from './context.ts';

export async function checkFeature(inputs: CheckInputs, feature: Feature): Promise<CheckResult> {
  const started = Date.now();
  const { cluster } = inputs;
  const steps: string[] = [];
  let expectation: Expectation;
  try {
    expectation = feature.expect(cluster);
  } catch (e) {
    expectation = { expected: 'supported', reason: 'expectation could not be computed', source: [] };
    return finish(inputs, feature, expectation, undefined, new Error(`expect() of ${feature.id} failed`, { cause: e }), steps, started);
  }
  const unmet =
    inputs.unpermitted ??
    feature.needs?.map(n => unmetNeed(n, cluster, { egressUrl: inputs.config.egressUrl, disruptiveNode: inputs.config.disruptiveNode })).find(Boolean);
  if (unmet) expectation = { ...expectation, expected: 'n/a', reason: unmet };
  const noImage = unmet ? undefined : noImageFor(inputs, feature);
  if (noImage) expectation = { ...expectation, expected: 'n/a', reason: noImage };
  if (expectation.expected === 'n/a') return finish(inputs, feature, expectation, undefined, undefined, steps, started);

  // The probe's signal aborts on the check deadline or when the run is interrupted; the race
  // makes a probe that ignores its signal still end the check on time.
  const controller = new AbortController();
  const timeoutMs = inputs.config.timeouts.check;
  let timer: NodeJS.Timeout | undefined;
  let onRunAbort = () => controller.abort();
  try {
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`check did not finish within ${Math.round(timeoutMs / 1000)}s`));
      }, timeoutMs);
      onRunAbort = () => {
        controller.abort();
        reject(new Error('run interrupted'));
      };
      if (inputs.runSignal.aborted) onRunAbort();
      inputs.runSignal.addEventListener('abort', onRunAbort, { once: true });
    });
    const observation = await Promise.race([feature.probe(makeCheckContext(inputs, feature, steps, controller.signal)), stopped]);
    return finish(inputs, feature, expectation, observation, undefined, steps, started);
  } catch (e) {
    // An admission of the cluster (Pod Security, SCCs, a policy, a webhook) refused a pod the probe needed: it cannot check here.
    const refusal = admissionRefusal(e);
    if (refusal)
      return finish(
        inputs,
        feature,
        { ...expectation, expected: 'n/a', reason: `the cluster's ${refusal.admission} refused a pod the check needs: ${refusal.text}` },
        undefined,
        undefined,
        steps,
        started,
      );
    // A pod found no room (others took it after planning): the error names the numbers.
    const means = asMeansError(e);
    const error =
      means?.means === 'capacity' && !inputs.runSignal.aborted
        ? await withCapacityNumbers({ kube: inputs.kube, nodes: cluster.nodes, runId: inputs.runId }, means).catch(() => e)
        : e;
    return finish(inputs, feature, expectation, undefined, error, steps, started);
  } finally {
    clearTimeout(timer);
    inputs.runSignal.removeEventListener('abort', onRunAbort);
  }
}

/** A declared fixture that has no image for the target build: the feature cannot run there. */
function noImageFor(inputs: CheckInputs, feature: Feature): string | undefined {
  for (const spec of feature.fixtures) {
    const f = inputs.fixtures.get(spec.id);
    if (f instanceof FixtureError && f.notApplicable) return `fixture ${spec.id}: ${f.notApplicable}`;
  }
  return undefined;
}

function finish(
  inputs: CheckInputs,
  f: Feature,
  expectation: Expectation,
  probed: Observation | undefined,
  error: unknown,
  steps: string[],
  started: number,
): CheckResult {
  // An error after the run was stopped is the stop, not the feature (marked, never a finding).
  if (error !== undefined && inputs.runSignal.aborted)
    return { ...notRunResult(f, stopReason(inputs.runSignal)), steps, durationMs: Date.now() - started, error: inputs.redactor.redact(errorText(error)) };
  const verdict = outcomeOf(expectation, probed, error, f.subject);
  const obs = verdict.observation ?? probed;
  const r = inputs.redactor;
  const node = obs?.node;
  const control = obs?.control;
  const evidence = [
    ...(obs?.evidence ?? []),
    ...(control ? [`control ${control.ok ? 'passed' : 'FAILED'}: ${control.summary}`, ...(control.evidence ?? [])] : []),
  ];
  const windowsBuild = inputs.cluster.nodes.find(n => n.name === node)?.windowsBuild;
  return {
    id: f.id,
    area: f.area,
    suite: suiteOf(f),
    title: f.title,
    expectation,
    outcome: verdict.outcome,
    reason: r.redact(verdict.reason),
    summary: r.redact(obs?.summary ?? (error !== undefined ? errorText(error) : expectation.reason)),
    evidence: evidence.map(e =>
      typeof e === 'string' ? r.redact(e) : { ...e, stdout: r.redact(e.stdout), stderr: r.redact(e.stderr), command: r.redact(e.command) },
    ),
    steps,
    node,
    windowsBuild,
    durationMs: Date.now() - started,
    startedAt: new Date(started).toISOString(),
    error: error !== undefined && verdict.outcome === 'error' ? r.redact(errorText(error)) : undefined,
  };
}

/** A selected feature the run never got to (deadline, Ctrl-C, a failed step): still one testcase. */
export function notRunResult(f: Feature, why: string, interrupted = /interrupted|--timeout|timed out/.test(why)): CheckResult {
  const reason = interrupted ? `interrupted: ${why}; the check was cut short, so this says nothing about the feature` : `not run: ${why}`;
  return {
    id: f.id,
    area: f.area,
    suite: suiteOf(f),
    title: f.title,
    expectation: { expected: 'supported', reason: 'not computed: the check did not run', source: [] },
    outcome: 'error',
    reason,
    summary: reason,
    evidence: [],
    steps: [],
    durationMs: 0,
    ...(interrupted ? { interrupted: true } : {}),
  };
}

/** "the run was interrupted (SIGINT)" / "the run hit its --timeout": from the run's abort reason. */
export function stopReason(signal: AbortSignal): string {
  const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? '');
  return /timed out/.test(why) ? 'the run hit its --timeout' : `the run was ${why || 'interrupted'}`;
}
