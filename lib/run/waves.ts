// Deploys fixtures in waves that fit the nodes (capacity.ts plans them), across every namespace
// the run deploys to (one per Windows build): a wave's fixtures are created together; when all
// checks of the wave are done, the fixtures no later check needs are deleted, their pods watched
// until gone, and the next wave is created. Checks wait for their own fixtures as before (the
// run's `settle`), so on a cluster with room everything is one wave and nothing changes. A
// fixture that cannot fit even alone is n/a with the numbers.

import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import type { Feature } from '../catalog/types.ts';
import { apiStatusCode } from '../cluster/apiError.ts';
import { objectRef } from '../cluster/create.ts';
import { watchUntil } from '../cluster/watch.ts';
import { isPodReady } from '../cluster/podState.ts';
import { FixtureError } from '../fixtures/errors.ts';
import { podsOfObjects } from '../fixtures/workloadPods.ts';
import { MeansError } from '../cluster/meansError.ts';
import { renderFixture } from '../fixtures/render.ts';
import type { FixtureSpec, RenderedFixture } from '../fixtures/types.ts';
import { FIXTURE_LABEL } from '../labels.ts';
import type { KubeClients } from '../cluster/types.ts';
import type { ClusterInfo } from '../discovery/types.ts';
import type { Redactor } from '../fixtures/secrets.ts';
import type { BuildScope, DeployPlan } from './builds.ts';
import { isDisruptive } from './disruptive.ts';
import { demandOf, placeableNodes, planWaves, readNodeRooms, sizeToFit, withReserve, type PodDemand, type WavePlan } from './capacity.ts';
import { deployFixtures, type FixtureTarget } from './createFixtures.ts';
import { listAll } from '../cluster/list.ts';

/** A fixture in one namespace: "<namespace>/<fixture id>". */
const keyOf = (target: FixtureTarget, id: string) => `${target.namespace}/${id}`;

/** What creating and releasing waves takes from the run. */
export interface WaveOptions {
  kube: KubeClients;
  redactor: Redactor;
  /** The run's signal: an interrupt settles every waiting check and starts no further wave. */
  signal: AbortSignal;
  /** How long the pods of released fixtures may take to be gone. */
  releaseTimeoutMs: number;
  /** Problems outside any check (a release that failed), redacted. */
  errors: string[];
  /** The critical path's fixtures (lib/run/priority.ts headStart): created first, the rest once their pods are Ready or boundMs has passed. */
  head?: { keys: Set<string>; boundMs: number };
  log(line: string): void;
}

interface Planned {
  plan: DeployPlan;
  spec: FixtureSpec;
  rendered?: RenderedFixture;
}

export class WaveRunner {
  private readonly _waveOf = new Map<string, number>();
  private readonly _pending: number[];
  private _busy: Promise<void> = Promise.resolve();

  constructor(
    private readonly _o: WaveOptions,
    readonly plan: WavePlan,
    private readonly _fixtures: Map<string, Planned>,
    private readonly _plans: DeployPlan[],
    /** Marks a fixture settled (created, failed or n/a): checks waiting on it may start. */
    private readonly _settle: (key: string) => void,
  ) {
    plan.waves.forEach((w, i) => {
      for (const f of w.features) this._waveOf.set(f, i);
    });
    this._pending = plan.waves.map(w => w.features.length);
    // An interrupted run lets every waiting check go on (and end at once on the aborted signal).
    _o.signal.addEventListener(
      'abort',
      () => {
        for (const k of _fixtures.keys()) _settle(k);
      },
      { once: true },
    );
  }

  /** Settles when no wave is being created or released (teardown waits for it). */
  idle(): Promise<void> {
    return this._busy;
  }

  /**
   * Creates the first wave, with every fixture no wave holds (a render failure records itself);
   * fixtures that cannot fit are recorded n/a. `beforeCreate` (the pre-pull) sees every fixture of
   * every wave, so later waves start from pulled images too.
   */
  start(beforeCreate?: (rendered: RenderedFixture[]) => Promise<void>): Promise<void> {
    for (const [key, why] of this.plan.unfit) {
      const p = this._fixtures.get(key)!;
      const message = `fixture ${p.spec.id} does not fit the nodes even alone: ${why}`;
      p.plan.target.fixtures.set(p.spec.id, new FixtureError(p.spec.id, message, { notApplicable: message }));
      this._o.log(`Capacity: ${message}.`);
      this._settle(key);
    }
    for (const [key, why] of this.plan.crowded) {
      const p = this._fixtures.get(key)!;
      const message = `fixture ${p.spec.id} does not fit: other workloads hold the room it needs: ${why}`;
      p.plan.target.fixtures.set(
        p.spec.id,
        new FixtureError(p.spec.id, message, { cause: new MeansError('capacity', message), pods: p.rendered ? podsOfObjects(p.rendered.objects) : undefined }),
      );
      this._o.log(`Capacity: ${message}.`);
      this._settle(key);
    }
    const later = new Set(this.plan.waves.slice(1).flatMap(w => w.deploy));
    const first = [...this._fixtures.keys()].filter(k => !later.has(k) && !this.plan.unfit.has(k) && !this.plan.crowded.has(k));
    const all = [...this._fixtures.values()].map(p => p.rendered).filter((r): r is RenderedFixture => r !== undefined);
    return this._track(this._deploy(0, first, beforeCreate && (() => beforeCreate(all))));
  }

  /** Counts the feature's check done; the last of a wave moves to the next wave. */
  async run<T>(feature: Feature, check: () => Promise<T>): Promise<T> {
    const w = this._waveOf.get(feature.id);
    try {
      return await check();
    } finally {
      if (w !== undefined && --this._pending[w] === 0) void this._track(this._advance(w));
    }
  }

  private _track(p: Promise<void>): Promise<void> {
    this._busy = this._busy.then(
      () => p,
      () => p,
    );
    return p;
  }

  private async _deploy(i: number, keys: string[], beforeCreate?: () => Promise<void>): Promise<void> {
    const n = this.plan.waves.length;
    if (n > 1) this._o.log(`Capacity: wave ${i + 1}/${n}: ${this.plan.waves[i]?.features.length ?? 0} check(s); creating ${keys.length} fixture(s).`);
    // The pre-pull runs once, before any plan creates anything; every plan waits for it.
    const pulled = beforeCreate?.();
    const head = i === 0 && this._o.head ? keys.filter(k => this._o.head!.keys.has(k)) : [];
    if (head.length && head.length < keys.length) {
      await this._create(head, pulled);
      await this._headReady(head, this._o.head!.boundMs);
      // Interrupted meanwhile: nothing more is created (every waiting check was let go).
      if (this._o.signal.aborted) return;
      await this._create(
        keys.filter(k => !this._o.head!.keys.has(k)),
        pulled,
      );
    } else await this._create(keys, pulled);
    // After the last wave nothing more is coming: no check may wait on a fixture forever.
    if (i >= n - 1) for (const k of this._fixtures.keys()) this._settle(k);
  }

  /**
   * Until the head's pods are Ready, or boundMs: only an order, so any failure to tell (a 403, the
   * deadline) lets the rest go at once; the checks' own waits say what is wrong.
   */
  private async _headReady(keys: string[], boundMs: number): Promise<void> {
    const byNamespace = new Map<string, { ids: string[]; expected: number }>();
    for (const k of keys) {
      const p = this._fixtures.get(k)!;
      const rendered = p.plan.target.fixtures.get(p.spec.id);
      if (!rendered || rendered instanceof FixtureError) continue;
      const e = byNamespace.get(p.plan.target.namespace) ?? { ids: [], expected: 0 };
      e.ids.push(p.spec.id);
      e.expected += readyPodsOf(rendered.objects);
      byNamespace.set(p.plan.target.namespace, e);
    }
    await Promise.all(
      [...byNamespace]
        .filter(([, e]) => e.expected > 0)
        .map(async ([namespace, { ids, expected }]) => {
          const ready = new Set<string>();
          const seen = (pod: V1Pod): true | undefined => {
            if (isPodReady(pod)) ready.add(pod.metadata!.name!);
            else ready.delete(pod.metadata!.name!);
            return ready.size >= expected ? true : undefined;
          };
          await this._watchPods(namespace, ids, {
            onList: items => {
              // A relist (after a 410) is the whole truth: names Ready before may be gone.
              ready.clear();
              let done: true | undefined;
              for (const p of items) done = seen(p);
              return done;
            },
            check: seen,
            what: `the critical path's pods (${ids.join(', ')}) to be Ready`,
            describe: () => `${ready.size} of ${expected} Ready`,
            timeoutMs: boundMs,
          }).catch(() => undefined);
        }),
    );
  }

  /** Creates the fixtures of these keys, each plan's in its namespace, once the pre-pull is done. */
  private async _create(keys: string[], pulled: Promise<void> | undefined): Promise<void> {
    await Promise.all(
      this._plans.map(plan => {
        const specs = keys
          .map(k => this._fixtures.get(k)!)
          .filter(p => p.plan === plan)
          .map(p => p.spec);
        return deployFixtures(plan.target, specs, {
          kube: this._o.kube,
          redactor: this._o.redactor,
          onSettled: id => this._settle(keyOf(plan.target, id)),
          beforeCreate: pulled ? () => pulled : undefined,
          prerendered: spec => this._fixtures.get(keyOf(plan.target, spec.id))?.rendered,
        });
      }),
    );
  }

  private async _advance(i: number): Promise<void> {
    if (i + 1 >= this.plan.waves.length || this._o.signal.aborted) return;
    try {
      await this._release(this.plan.waves[i].release);
    } catch (e) {
      // The next wave still goes: the scheduler, and the waits' FailedScheduling errors, say the rest.
      const message = `capacity: releasing the fixtures of wave ${i + 1} failed: ${(e as Error).message}`;
      this._o.errors.push(this._o.redactor.redact(message));
      this._o.log(message);
    }
    if (this._o.signal.aborted) return;
    await this._deploy(i + 1, this.plan.waves[i + 1].deploy);
  }

  /** Deletes the fixtures' objects and their pods, and watches until the pods are gone (their room is free). */
  private async _release(keys: string[]): Promise<void> {
    const { kube } = this._o;
    const byNamespace = new Map<string, string[]>();
    for (const key of keys) {
      const p = this._fixtures.get(key)!;
      const rendered = p.plan.target.fixtures.get(p.spec.id);
      for (const obj of rendered instanceof FixtureError || !rendered ? [] : [...rendered.objects].reverse()) {
        try {
          await kube.objects.delete(obj as KubernetesObject, undefined, undefined, 0, undefined, 'Background');
        } catch (e) {
          if (apiStatusCode(e) !== 404) throw new Error(`deleting ${objectRef(obj)}: ${(e as Error).message}`, { cause: e });
        }
      }
      p.plan.target.fixtures.delete(p.spec.id);
      byNamespace.set(p.plan.target.namespace, [...(byNamespace.get(p.plan.target.namespace) ?? []), p.spec.id]);
    }
    for (const [namespace, ids] of byNamespace) {
      // Pods probes made from these fixtures (copies carrying the fixture label) go too.
      await kube.core.deleteCollectionNamespacedPod({ namespace, labelSelector: `${FIXTURE_LABEL} in (${ids.join(',')})`, gracePeriodSeconds: 0 });
      const left = new Set<string>();
      await this._watchPods(namespace, ids, {
        onList: items => {
          left.clear();
          for (const p of items) left.add(p.metadata!.name!);
          return left.size ? undefined : true;
        },
        check: (p, type) => {
          if (type === 'DELETED') left.delete(p.metadata!.name!);
          else left.add(p.metadata!.name!);
          return left.size ? undefined : true;
        },
        what: `the pods of fixtures ${ids.join(', ')} in ${namespace} to be gone`,
        describe: () => [...left].join(', ') || 'none',
        timeoutMs: this._o.releaseTimeoutMs,
      });
    }
  }

  /** Watches the pods of these fixtures (and copies carrying their label) in one namespace, under the run's signal. */
  private _watchPods(
    namespace: string,
    ids: string[],
    o: Pick<Parameters<typeof watchUntil<V1Pod, true>>[0], 'onList' | 'check' | 'what' | 'describe' | 'timeoutMs'>,
  ): Promise<true> {
    const { kube } = this._o;
    const labelSelector = `${FIXTURE_LABEL} in (${ids.join(',')})`;
    return watchUntil<V1Pod, true>({
      ...o,
      kube,
      path: `/api/v1/namespaces/${namespace}/pods`,
      labelSelector,
      list: () => listAll(q => kube.core.listNamespacedPod({ namespace, labelSelector, ...q })),
      signal: this._o.signal,
    });
  }
}

/** Pods a fixture's objects make that should become Ready (a DaemonSet's or Job's are not counted). */
function readyPodsOf(objects: readonly KubernetesObject[]): number {
  let n = 0;
  for (const o of objects) {
    if (o.kind === 'Pod') n++;
    else if (o.kind === 'Deployment' || o.kind === 'StatefulSet' || o.kind === 'ReplicaSet') n += (o as { spec?: { replicas?: number } }).spec?.replicas ?? 1;
  }
  return n;
}

/**
 * Reads each usable node's room, renders every plan's fixtures to see what they ask for, sizes
 * those whose resources are the subject, and plans the waves over all namespaces together (they
 * share the nodes).
 */
export interface PlanDeploymentInputs extends WaveOptions {
  cluster: ClusterInfo;
  /** The run's features (per-build instances included), in catalog order. */
  features: Feature[];
  /** The run's own namespace (the features without a build scope deploy there). */
  namespace: string;
  scopes?: Map<string, BuildScope>;
  /** The critical path's features and how long the rest may wait for their pods (priority.ts headStart). */
  headStart?: { features: string[]; boundMs: number };
}

export async function planDeployment(o: PlanDeploymentInputs, plans: DeployPlan[], settle: (key: string) => void): Promise<WaveRunner> {
  const { cluster } = o;
  const nodes = placeableNodes(cluster.nodes);
  const { rooms, note } = await readNodeRooms(o.kube, nodes, o.namespace);
  if (note) o.log(`Capacity: ${note}.`);
  const reserved = withReserve(rooms);
  const fixtures = new Map<string, Planned>();
  const demand = new Map<string, PodDemand[]>();
  for (const plan of plans) {
    for (const spec of plan.specs) {
      const key = keyOf(plan.target, spec.id);
      let rendered: RenderedFixture | undefined;
      try {
        rendered = renderFixture(spec, plan.target.render);
      } catch {
        // deployFixtures renders it again and records the failure.
      }
      if (rendered && spec.sizeToNode) {
        const sized = sizeToFit(rendered, cluster.nodes, reserved);
        if (sized) o.log(`Capacity: ${sized}.`);
      }
      fixtures.set(key, { plan, spec, rendered });
      if (rendered) demand.set(key, demandOf(rendered, cluster.nodes));
    }
  }
  const features = o.features
    .map(f => {
      const plan = plans.find(p => p.target.namespace === (o.scopes?.get(f.id)?.namespace ?? o.namespace));
      return {
        id: f.id,
        fixtures: plan ? f.fixtures.map(s => keyOf(plan.target, s.id)).filter(k => demand.has(k)) : [],
        afterRoutine: isDisruptive(f),
      };
    })
    .filter(f => f.fixtures.length);
  const plan = planWaves(features, demand, reserved);
  if (plan.waves.length > 1) o.log(`Capacity: the fixtures do not fit the nodes at once; deploying in ${plan.waves.length} waves.`);
  const head = o.headStart && new Set(features.filter(f => o.headStart!.features.includes(f.id)).flatMap(f => f.fixtures));
  // Only where everything fits at once: on a tight cluster the waves decide the order, and a later
  // creation moves the moment a check's own pods compete for the room with probes' pods.
  const first = plan.waves.length === 1 && head && head.size > 0 && head.size < fixtures.size ? head : undefined;
  if (first)
    o.log(
      `Deploying the critical path's ${first.size} fixture(s) first (${o.headStart!.features.join(', ')}): the others once their pods are Ready, at most ${(o.headStart!.boundMs / 1000).toFixed(1)}s later.`,
    );
  return new WaveRunner({ ...o, head: first ? { keys: first, boundMs: o.headStart!.boundMs } : undefined }, plan, fixtures, plans, settle);
}
