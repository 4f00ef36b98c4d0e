// Every Windows build qualified: on a cluster with several Windows builds, each build-specific
// feature runs once per build, as its own testcase "<id> [<build>]" (stable across runs), with its
// fixtures in a namespace of that build, pinned to that build's nodes, and its expectation computed
// for that build alone. Single-build clusters keep plain ids: their testcase names do not change.

import type { Feature } from '../catalog/types.ts';
import { schedulableWindowsNodes, targetWindowsNode } from '../discovery/nodes.ts';
import type { ClusterInfo } from '../discovery/types.ts';
import type { FixtureError } from '../fixtures/errors.ts';
import { buildLabel, buildNumberOf } from '../facts/windows.ts';
import type { FixtureSpec, RenderContext, RenderedFixture } from '../fixtures/types.ts';
import { instanceId } from '../report/buildTable.ts';
import { fixturesToDeploy, renderContextFor } from './createFixtures.ts';
import type { RunState } from './state.ts';

/** One Windows build's share of the run. The primary build uses the run's own namespace. */
export interface BuildScope {
  /** "10.0.20348". */
  build: string;
  /** "ltsc2022": the testcase suffix. */
  label: string;
  primary: boolean;
  namespace: string;
  /** The cluster as this build's checks see it: Linux nodes and this build's Windows nodes. */
  cluster: ClusterInfo;
  render: RenderContext;
  fixtures: Map<string, RenderedFixture | FixtureError>;
}

/**
 * A feature is build-specific when its Windows fixtures are pinned to the target build (or node):
 * what it observes depends on the build's images and OS. `perBuild` overrides. Features whose
 * pods go anywhere (pin 'none', DaemonSets on every build) or that look at every node already
 * cover every build in one check.
 */
export function isBuildSpecific(f: Feature): boolean {
  return f.perBuild ?? f.fixtures.some(s => s.os === 'windows' && (s.pin ?? 'build') !== 'none' && !s.everyBuild);
}

/** Schedulable Windows builds, the target's first (it stays the run's main namespace), then ascending. */
export function windowsBuilds(cluster: ClusterInfo): string[] {
  const target = targetWindowsNode(cluster.nodes)?.windowsBuild;
  const all = [...new Set(schedulableWindowsNodes(cluster.nodes).map(n => n.windowsBuild).filter((b): b is string => !!b))];
  return all.sort((a, b) => (a === target ? -1 : b === target ? 1 : (buildNumberOf(a) ?? 0) - (buildNumberOf(b) ?? 0)));
}

export function clusterForBuild(cluster: ClusterInfo, build: string): ClusterInfo {
  return { ...cluster, nodes: cluster.nodes.filter(n => n.os !== 'windows' || n.windowsBuild === build) };
}

/**
 * The features to run, with build-specific ones expanded per build, and the scope of each
 * instance (keyed by its id). Non-primary scopes get their own namespace and render context.
 */
export function expandForBuilds(run: RunState, cluster: ClusterInfo): { features: Feature[]; scopes: Map<string, BuildScope> } {
  const builds = windowsBuilds(cluster);
  const scopes = new Map<string, BuildScope>();
  if (builds.length < 2) return { features: run.features, scopes };
  const byBuild = builds.map((build, i): BuildScope => {
    const label = buildLabel(build);
    const view = clusterForBuild(cluster, build);
    const namespace = i === 0 ? run.namespace : `${run.namespace}-${label.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`;
    // Pinned to the build (several builds in the cluster), targeting a node of this build.
    const render = i === 0 ? run.render! : { ...renderContextFor({ ...run, namespace }, view), multipleBuilds: true };
    return { build, label, primary: i === 0, namespace, cluster: view, render, fixtures: i === 0 ? run.fixtures : new Map() };
  });
  const features = run.features.flatMap(f => {
    if (!isBuildSpecific(f)) return [f];
    const unpermitted = run.unpermitted?.get(f.id);
    return byBuild.map(scope => {
      const id = instanceId(f.id, scope.label);
      scopes.set(id, scope);
      // --skip-unpermitted names features by id: each instance is as unpermitted as its feature.
      if (unpermitted) run.unpermitted!.set(id, unpermitted);
      return { ...f, id };
    });
  });
  return { features, scopes };
}

/** The run as one instance's check sees it: its build's namespace, fixtures and cluster view. */
export function scopedRun(run: RunState, scope: BuildScope | undefined): RunState {
  return scope ? { ...run, namespace: scope.namespace, fixtures: scope.fixtures, render: scope.render, cluster: scope.cluster } : run;
}

export function otherBuildScopes(run: RunState): BuildScope[] {
  return [...new Set(run.buildScopes?.values() ?? [])].filter(s => !s.primary);
}

export interface DeployPlan { run: RunState; specs: FixtureSpec[]; scope?: BuildScope }

/**
 * What to deploy where: the run's namespace gets the fixtures of the features without a scope and
 * of the primary build's instances; each other build's namespace those of its instances, judged
 * (needs, n/a) on that build's view of the cluster.
 */
export function deployPlans(run: RunState): DeployPlan[] {
  const cluster = run.cluster!;
  const scopeOf = (f: Feature) => run.buildScopes?.get(f.id);
  const primaryView = [...run.buildScopes?.values() ?? []].find(s => s.primary)?.cluster;
  const main = new Map<string, FixtureSpec>();
  for (const spec of fixturesToDeploy({ ...run, features: run.features.filter(f => !scopeOf(f)) }, cluster)) main.set(spec.id, spec);
  if (primaryView)
    for (const spec of fixturesToDeploy({ ...run, features: run.features.filter(f => scopeOf(f)?.primary) }, primaryView)) if (!main.has(spec.id)) main.set(spec.id, spec);
  return [
    { run, specs: [...main.values()] },
    ...otherBuildScopes(run).map(scope => {
      const scoped = scopedRun(run, scope);
      return { run: scoped, scope, specs: fixturesToDeploy({ ...scoped, features: run.features.filter(f => scopeOf(f) === scope) }, scope.cluster) };
    }),
  ];
}

/**
 * A beforeCreate hook shared by `count` deployments: the last to arrive runs `fn` on everything
 * rendered by all of them (one pre-pull phase for every build), the others wait for it.
 */
export function afterAll(count: number, fn: (rendered: RenderedFixture[]) => Promise<unknown>): (rendered: RenderedFixture[]) => Promise<void> {
  const all: RenderedFixture[] = [];
  let arrived = 0;
  let release!: () => void;
  const gate = new Promise<void>(resolve => { release = resolve; });
  return async rendered => {
    all.push(...rendered);
    if (++arrived < count) return gate;
    try {
      await fn(all);
    } finally {
      release();
    }
  };
}
