// Deploys the fixtures of every selected feature up front, in parallel (objects of one fixture
// in order: a RuntimeClass before the pod naming it). A fixture that fails is recorded; only
// the features using it are affected.

import { admissionRefusal } from '../cluster/admissionRefusal.ts';
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
import type { Redactor } from '../fixtures/secrets.ts';
import type { Feature } from '../catalog/types.ts';
import type { KubeClients } from '../cluster/types.ts';

/** A namespace fixtures are created in: the run's own, or one Windows build's (lib/run/builds.ts). */
export interface FixtureTarget {
  namespace: string;
  render: RenderContext;
  /** Each fixture as created, or why it failed: what the checks of this namespace read. */
  fixtures: Map<string, RenderedFixture | FixtureError>;
}

/** What a render context is made of besides the cluster. */
export interface RenderInputs {
  runId: string;
  namespace: string;
  secrets: Record<string, string>;
  imageRegistry?: string;
  /** --disruptive-node, for fixtures pinned there. */
  disruptiveNode?: string;
}

export function renderContextFor(o: RenderInputs, cluster: ClusterInfo): RenderContext {
  const target = targetWindowsNode(cluster.nodes);
  const usable = schedulableWindowsNodes(cluster.nodes);
  const builds = new Set(usable.map(n => n.windowsBuild).filter(Boolean));
  const ofBuild = usable.filter(n => target && n.windowsBuild === target.windowsBuild);
  return {
    runId: o.runId,
    namespace: o.namespace,
    windowsBuild: target?.windowsBuild,
    windowsNode: target?.name,
    multipleBuilds: builds.size > 1,
    windowsBuildNodes: ofBuild.every(n => n.labels[WINDOWS_BUILD_LABEL] === n.windowsBuild) ? undefined : ofBuild.map(n => n.name),
    windowsTaints: windowsTaints(cluster.nodes),
    imageRegistry: o.imageRegistry,
    ...(o.disruptiveNode ? { disruptiveNode: o.disruptiveNode } : {}),
    secrets: o.secrets,
  };
}

/** Fixtures of the features that will probe (needs met, not n/a), deduplicated by id. */
export function fixturesToDeploy(
  features: Feature[],
  cluster: ClusterInfo,
  o: { unpermitted?: Map<string, string>; egressUrl?: string; disruptiveNode?: string },
): FixtureSpec[] {
  const byId = new Map<string, FixtureSpec>();
  for (const f of features) {
    if (o.unpermitted?.has(f.id)) continue;
    if (f.needs?.some(n => unmetNeed(n, cluster, { egressUrl: o.egressUrl, disruptiveNode: o.disruptiveNode }))) continue;
    if (f.expect(cluster).expected === 'n/a') continue;
    for (const spec of f.fixtures) if (!byId.has(spec.id)) byId.set(spec.id, spec);
  }
  return [...byId.values()];
}

export interface DeployFixturesOptions {
  kube: KubeClients;
  redactor: Redactor;
  /** That fixture's objects are created, or its failure recorded (its checks may start). */
  onSettled?(id: string): void;
  /** Sees every rendered fixture before any is created (the pre-pull phase). */
  beforeCreate?(rendered: RenderedFixture[]): Promise<void>;
  /** Already rendered (and sized to the nodes) by the capacity plan, lib/run/waves.ts. */
  prerendered?(spec: FixtureSpec): RenderedFixture | undefined;
}

/**
 * Renders every fixture, lets `beforeCreate` see them (the pre-pull phase pulls their images
 * first, so pod-start deadlines count from images present), then creates their objects in the
 * target's namespace, recording each in `target.fixtures`.
 */
export async function deployFixtures(target: FixtureTarget, specs: FixtureSpec[], o: DeployFixturesOptions): Promise<void> {
  const { kube, redactor } = o;
  const rendered: RenderedFixture[] = [];
  for (const spec of specs) {
    try {
      rendered.push(o.prerendered?.(spec) ?? renderFixture(spec, target.render));
    } catch (e) {
      target.fixtures.set(spec.id, fixtureError(redactor, spec, e));
      o.onSettled?.(spec.id);
    }
  }
  await o.beforeCreate?.(rendered);
  await Promise.all(
    rendered.map(async r => {
      try {
        for (const obj of r.objects) {
          await dryRunPodTemplate(kube, obj);
          await createObject(kube, obj);
        }
        target.fixtures.set(r.spec.id, r);
      } catch (e) {
        target.fixtures.set(r.spec.id, fixtureError(redactor, r.spec, e, podsOfObjects(r.objects)));
      } finally {
        o.onSettled?.(r.spec.id);
      }
    }),
  );
}

function fixtureError(redactor: Redactor, spec: FixtureSpec, e: unknown, pods?: FixturePods): FixtureError {
  const message = `failed to deploy fixture "${spec.id}": ${e instanceof Error ? e.message : String(e)}`;
  // Refused by any admission (Pod Security, OpenShift's SCCs, a policy, a webhook): the features needing it are n/a, in its words.
  const refusal = admissionRefusal(e);
  const notApplicable =
    e instanceof NoImageError
      ? redactor.redact(e.message)
      : refusal
        ? redactor.redact(`the cluster's ${refusal.admission} refused it: ${refusal.text}`)
        : undefined;
  return new FixtureError(spec.id, redactor.redact(message), { cause: e, notApplicable, pods });
}
