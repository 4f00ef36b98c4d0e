// Every Windows build qualified: on a cluster with several Windows builds, each build-specific
// feature runs once per build, as its own testcase "<id> [<build>]" (stable across runs), with its
// fixtures in a namespace of that build, pinned to that build's nodes, and its expectation computed
// for that build alone. Single-build clusters keep plain ids: their testcase names do not change.

import type { Feature } from '../catalog/types.ts';
import { schedulableWindowsNodes, targetWindowsNode } from '../discovery/nodes.ts';
import type { ClusterInfo } from '../discovery/types.ts';
import { buildLabel, buildNumberOf } from '../facts/windows.ts';
import type { FixtureSpec, RenderedFixture } from '../fixtures/types.ts';
import { fixturesToDeploy, renderContextFor, type FixtureTarget, type RenderInputs } from './createFixtures.ts';
import { instanceId } from './instanceId.ts';

/** One Windows build's share of the run. The primary build uses the run's own namespace. */
export interface BuildScope extends FixtureTarget {
  /** "10.0.20348". */
  build: string;
  /** "ltsc2022": the testcase suffix. */
  label: string;
  primary: boolean;
  namespace: string;
  /** The cluster as this build's checks see it: Linux nodes and this build's Windows nodes. */
  cluster: ClusterInfo;
}

/**
 * A feature is build-specific when its Windows fixtures are pinned to the target build (or node):
 * what it observes depends on the build's images and OS. `perBuild` overrides. Features whose
 * pods go anywhere (pin 'none', DaemonSets on every build) or that look at every node already
 * cover every build in one check.
 */
export function isBuildSpecific(f: Feature): boolean {
  // A fixture on the --disruptive-node runs on that node's build only.
  return f.perBuild ?? f.fixtures.some(s => s.os === 'windows' && !['none', 'disruptive-node'].includes(s.pin ?? 'build') && !s.everyBuild);
}

/** Schedulable Windows builds, the target's first (it stays the run's main namespace), then ascending. */
export function windowsBuilds(cluster: ClusterInfo): string[] {
  const target = targetWindowsNode(cluster.nodes)?.windowsBuild;
  const all = [
    ...new Set(
      schedulableWindowsNodes(cluster.nodes)
        .map(n => n.windowsBuild)
        .filter((b): b is string => !!b),
    ),
  ];
  return all.sort((a, b) => (a === target ? -1 : b === target ? 1 : (buildNumberOf(a) ?? 0) - (buildNumberOf(b) ?? 0)));
}

export function clusterForBuild(cluster: ClusterInfo, build: string): ClusterInfo {
  return { ...cluster, nodes: cluster.nodes.filter(n => n.os !== 'windows' || n.windowsBuild === build) };
}

export interface ExpandOptions {
  /** The run's own namespace, render context and fixtures: the primary build's. */
  main: FixtureTarget;
  /** What the other builds' render contexts are made of (each gets its own namespace). */
  render: Omit<RenderInputs, 'namespace'>;
  /** --skip-unpermitted: each instance is added, as unpermitted as its feature. */
  unpermitted?: Map<string, string>;
}

/**
 * The features to run, with build-specific ones expanded per build, and the scope of each
 * instance (keyed by its id). Non-primary scopes get their own namespace and render context.
 */
export function expandForBuilds(selected: Feature[], cluster: ClusterInfo, o: ExpandOptions): { features: Feature[]; scopes: Map<string, BuildScope> } {
  const builds = windowsBuilds(cluster);
  const scopes = new Map<string, BuildScope>();
  if (builds.length < 2) return { features: selected, scopes };
  const { main } = o;
  const byBuild = builds.map((build, i): BuildScope => {
    const label = buildLabel(build);
    const view = clusterForBuild(cluster, build);
    const namespace = i === 0 ? main.namespace : `${main.namespace}-${label.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`;
    // Pinned to the build (several builds in the cluster), targeting a node of this build.
    const render = i === 0 ? main.render : { ...renderContextFor({ ...o.render, namespace }, view), multipleBuilds: true };
    return { build, label, primary: i === 0, namespace, cluster: view, render, fixtures: i === 0 ? main.fixtures : new Map() };
  });
  const features = selected.flatMap(f => {
    if (!isBuildSpecific(f)) return [f];
    const unpermitted = o.unpermitted?.get(f.id);
    return byBuild.map(scope => {
      const id = instanceId(f.id, scope.label);
      scopes.set(id, scope);
      // --skip-unpermitted names features by id: each instance is as unpermitted as its feature.
      if (unpermitted) o.unpermitted!.set(id, unpermitted);
      return { ...f, id };
    });
  });
  return { features, scopes };
}

export function otherBuildScopes(scopes: Map<string, BuildScope> | undefined): BuildScope[] {
  return [...new Set(scopes?.values() ?? [])].filter(s => !s.primary);
}

export interface DeployPlan {
  target: FixtureTarget;
  specs: FixtureSpec[];
  scope?: BuildScope;
}

export interface DeployPlanInputs {
  /** The run's features, per-build instances included. */
  features: Feature[];
  cluster: ClusterInfo;
  /** The run's own namespace. */
  main: FixtureTarget;
  /** Each per-build instance's scope, by its id. */
  scopes?: Map<string, BuildScope>;
  unpermitted?: Map<string, string>;
  egressUrl?: string;
  disruptiveNode?: string;
}

/**
 * What to deploy where: the run's namespace gets the fixtures of the features without a scope and
 * of the primary build's instances; each other build's namespace those of its instances, judged
 * (needs, n/a) on that build's view of the cluster.
 */
export function deployPlans(o: DeployPlanInputs): DeployPlan[] {
  const scopeOf = (f: Feature) => o.scopes?.get(f.id);
  const primaryView = [...(o.scopes?.values() ?? [])].find(s => s.primary)?.cluster;
  const main = new Map<string, FixtureSpec>();
  for (const spec of fixturesToDeploy(
    o.features.filter(f => !scopeOf(f)),
    o.cluster,
    o,
  ))
    main.set(spec.id, spec);
  if (primaryView)
    for (const spec of fixturesToDeploy(
      o.features.filter(f => scopeOf(f)?.primary),
      primaryView,
      o,
    ))
      if (!main.has(spec.id)) main.set(spec.id, spec);
  return [
    { target: o.main, specs: [...main.values()] },
    ...otherBuildScopes(o.scopes).map(scope => ({
      target: scope,
      scope,
      specs: fixturesToDeploy(
        o.features.filter(f => scopeOf(f) === scope),
        scope.cluster,
        o,
      ),
    })),
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
  const gate = new Promise<void>(resolve => {
    release = resolve;
  });
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
