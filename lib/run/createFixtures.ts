// Deploys the fixtures of every selected feature up front, in parallel (objects of one fixture
// in order: a RuntimeClass before the pod naming it). A fixture that fails is recorded; only
// the features using it are affected.

import { podSecurityRejection } from '../cluster/apiError.ts';
import { dryRunPodTemplate } from '../cluster/podSecurity.ts';
import { unmetNeed } from '../catalog/needs.ts';
import { createObject } from '../cluster/create.ts';
import { schedulableWindowsNodes, targetWindowsNode, windowsTaints } from '../discovery/nodes.ts';
import type { ClusterInfo } from '../discovery/types.ts';
import { FixtureError } from '../fixtures/errors.ts';
import { NoImageError } from '../fixtures/images.ts';
import { WINDOWS_BUILD_LABEL } from '../labels.ts';
import { renderFixture } from '../fixtures/render.ts';
import { podsOfObjects, type FixturePods } from '../fixtures/workloadPods.ts';
import type { FixtureSpec, RenderContext, RenderedFixture } from '../fixtures/types.ts';
import type { RunState } from './state.ts';

export function renderContextFor(run: Pick<RunState, 'runId' | 'namespace' | 'secrets' | 'config'>, cluster: ClusterInfo): RenderContext {
  const target = targetWindowsNode(cluster.nodes);
  const usable = schedulableWindowsNodes(cluster.nodes);
  const builds = new Set(usable.map(n => n.windowsBuild).filter(Boolean));
  const ofBuild = usable.filter(n => target && n.windowsBuild === target.windowsBuild);
  return {
    runId: run.runId,
    namespace: run.namespace,
    windowsBuild: target?.windowsBuild,
    windowsNode: target?.name,
    multipleBuilds: builds.size > 1,
    windowsBuildNodes: ofBuild.every(n => n.labels[WINDOWS_BUILD_LABEL] === n.windowsBuild) ? undefined : ofBuild.map(n => n.name),
    windowsTaints: windowsTaints(cluster.nodes),
    imageRegistry: run.config.imageRegistry,
    secrets: run.secrets,
  };
}

/** Fixtures of the features that will probe (needs met, not n/a), deduplicated by id. */
export function fixturesToDeploy(run: RunState, cluster: ClusterInfo): FixtureSpec[] {
  const byId = new Map<string, FixtureSpec>();
  for (const f of run.features) {
    if (run.unpermitted?.has(f.id)) continue;
    if (f.needs?.some(n => unmetNeed(n, cluster, { egressUrl: run.config.egressUrl }))) continue;
    if (f.expect(cluster).expected === 'n/a') continue;
    for (const spec of f.fixtures) if (!byId.has(spec.id)) byId.set(spec.id, spec);
  }
  return [...byId.values()];
}

/**
 * Renders every fixture, lets `beforeCreate` see them (the pre-pull phase pulls their images
 * first, so pod-start deadlines count from images present), then creates their objects.
 * `onSettled(id)`: that fixture's objects are created, or its failure recorded (its checks may start).
 */
export async function deployFixtures(run: RunState, specs: FixtureSpec[], onSettled?: (id: string) => void, beforeCreate?: (rendered: RenderedFixture[]) => Promise<void>,
  /** Already rendered (and sized to the nodes) by the capacity plan, lib/run/waves.ts. */
  prerendered?: (spec: FixtureSpec) => RenderedFixture | undefined): Promise<void> {
  const render = run.render!;
  const rendered: RenderedFixture[] = [];
  for (const spec of specs) {
    try {
      rendered.push(prerendered?.(spec) ?? renderFixture(spec, render));
    } catch (e) {
      run.fixtures.set(spec.id, fixtureError(run, spec, e));
      onSettled?.(spec.id);
    }
  }
  await beforeCreate?.(rendered);
  await Promise.all(rendered.map(async r => {
    try {
      for (const obj of r.objects) {
        await dryRunPodTemplate(run.kube, obj);
        await createObject(run.kube, obj);
      }
      run.fixtures.set(r.spec.id, r);
    } catch (e) {
      run.fixtures.set(r.spec.id, fixtureError(run, r.spec, e, podsOfObjects(r.objects)));
    } finally {
      onSettled?.(r.spec.id);
    }
  }));
}

function fixtureError(run: RunState, spec: FixtureSpec, e: unknown, pods?: FixturePods): FixtureError {
  const message = `failed to deploy fixture "${spec.id}": ${e instanceof Error ? e.message : String(e)}`;
  const psa = podSecurityRejection(e);
  const notApplicable = e instanceof NoImageError ? run.redactor.redact(e.message)
    : psa ? run.redactor.redact(`the cluster's Pod Security admission refused it: ${psa}`) : undefined;
  return new FixtureError(spec.id, run.redactor.redact(message), { cause: e, notApplicable, pods });
}
