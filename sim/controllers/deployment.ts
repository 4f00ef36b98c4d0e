// The Deployment controller: one ReplicaSet per pod template (named <deploy>-<hash>,
// labelled pod-template-hash, revision annotation), rolled with RollingUpdate
// (maxSurge / maxUnavailable, as kube-controller-manager computes them) or Recreate,
// and status with the real condition reasons.

import type { V1Deployment, V1DeploymentCondition, V1PodTemplateSpec, V1ReplicaSet } from '@kubernetes/client-node';
import type { KubeObject } from '../api/store.ts';
import { isBroken } from '../profiles/load.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { controllerRef, isControlledBy, ownerReferenceTo, setCondition, stableJSON, templateHash } from './objects.ts';
import { REPLICASETS } from './replicaset.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

export const DEPLOYMENTS = 'deployments.apps';
const SOURCE = 'deployment-controller';
const HASH_LABEL = 'pod-template-hash';
const REVISION = 'deployment.kubernetes.io/revision';

const asRS = (o: KubeObject) => o as unknown as V1ReplicaSet;
const revisionOf = (rs: KubeObject) => Number(rs.metadata.annotations?.[REVISION] ?? 0);
const specReplicas = (rs: KubeObject) => asRS(rs).spec?.replicas ?? 0;

/** An int-or-percent of the desired replicas; surge rounds up, unavailable rounds down. */
export function resolveIntOrPercent(v: number | string | undefined, fallback: string, total: number, roundUp: boolean): number {
  const val = v ?? fallback;
  if (typeof val === 'number') return val;
  const m = /^([0-9]+)%$/.exec(val);
  if (!m) return Number(val) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

function stripHash(template: V1PodTemplateSpec | undefined): V1PodTemplateSpec {
  const t = structuredClone(template ?? {});
  if (t.metadata?.labels) delete t.metadata.labels[HASH_LABEL];
  if (t.metadata?.labels && !Object.keys(t.metadata.labels).length) delete t.metadata.labels;
  return t;
}

export function startDeploymentController({ store, profile }: ControllerContext): Stoppable {
  const queue = new WorkQueue('deployment-controller', key => sync(key));
  const sub = store.onAny(
    guarded('deployment-controller', (bucket, e) => {
      if (bucket === DEPLOYMENTS) queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
      if (bucket === REPLICASETS) {
        const ref = controllerRef(e.object);
        if (ref?.kind === 'Deployment') queue.add(keyOf(e.object.metadata.namespace, ref.name));
      }
    }),
  );
  for (const d of store.list(DEPLOYMENTS).items) queue.add(keyOf(d.metadata.namespace, d.metadata.name!));

  function scale(rs: KubeObject, to: number, d: KubeObject): void {
    const from = specReplicas(rs);
    if (from === to) return;
    store.mutate(REPLICASETS, rs.metadata.namespace, rs.metadata.name!, o => {
      asRS(o).spec!.replicas = to;
      o.metadata.annotations = {
        ...o.metadata.annotations,
        'deployment.kubernetes.io/desired-replicas': String((d as unknown as V1Deployment).spec?.replicas ?? 1),
      };
    });
    recordEvent(store, d, 'Normal', 'ScalingReplicaSet', `Scaled ${to > from ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${to}`, SOURCE);
  }

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const dObj = store.tryGet(DEPLOYMENTS, ns, name);
    if (!dObj || dObj.metadata.deletionTimestamp) return;
    // A controller that is not running (crashed, its leader election lost): nothing is written.
    if (isBroken(profile, 'deployment-controller-down')) return;
    const d = dObj as unknown as V1Deployment;
    const replicas = d.spec?.replicas ?? 1;
    const all = store.list(REPLICASETS, { namespace: ns }).items.filter(rs => isControlledBy(rs, dObj));
    const wanted = stableJSON(stripHash(d.spec?.template));
    let newRS = all.find(rs => stableJSON(stripHash(asRS(rs).spec?.template)) === wanted);
    const olds = all.filter(rs => rs !== newRS).sort((a, b) => revisionOf(a) - revisionOf(b));
    const maxOldRevision = Math.max(0, ...olds.map(revisionOf));
    const rolling = d.spec?.strategy?.type !== 'Recreate';
    const maxSurge = rolling ? resolveIntOrPercent(d.spec?.strategy?.rollingUpdate?.maxSurge, '25%', replicas, true) : 0;
    let maxUnavailable = rolling ? resolveIntOrPercent(d.spec?.strategy?.rollingUpdate?.maxUnavailable, '25%', replicas, false) : replicas;
    if (rolling && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
    let created = false;

    if (!d.spec?.paused) {
      if (!newRS) {
        newRS = createReplicaSet(dObj, maxOldRevision + 1);
        created = true;
      } else if (revisionOf(newRS) <= maxOldRevision) {
        // A rollback to an older template: it becomes the newest revision again.
        newRS = store.mutate(REPLICASETS, ns, newRS.metadata.name!, o => {
          o.metadata.annotations = { ...o.metadata.annotations, [REVISION]: String(maxOldRevision + 1) };
        });
      }
      // A broken controller never lets the new ReplicaSet get pods.
      const target = isBroken(profile, 'deployment-controller') ? 0 : replicas;
      if (rolling) rollingUpdate(dObj, newRS, olds, target, maxSurge, maxUnavailable);
      else recreate(dObj, newRS, olds, target);
      cleanupHistory(d, olds);
    }
    writeStatus(
      dObj,
      newRS,
      store.list(REPLICASETS, { namespace: ns }).items.filter(rs => isControlledBy(rs, dObj)),
      maxUnavailable,
      created,
    );
  }

  function createReplicaSet(dObj: KubeObject, revision: number): KubeObject {
    const d = dObj as unknown as V1Deployment;
    const collision = d.status?.collisionCount ?? 0;
    const hash = templateHash(d.spec?.template, collision);
    const template = structuredClone(d.spec!.template);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [HASH_LABEL]: hash } };
    const rs: V1ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${dObj.metadata.name}-${hash}`,
        namespace: dObj.metadata.namespace,
        labels: { ...template.metadata.labels },
        annotations: {
          [REVISION]: String(revision),
          'deployment.kubernetes.io/desired-replicas': String(d.spec?.replicas ?? 1),
          'deployment.kubernetes.io/max-replicas': String(
            (d.spec?.replicas ?? 1) + resolveIntOrPercent(d.spec?.strategy?.rollingUpdate?.maxSurge, '25%', d.spec?.replicas ?? 1, true),
          ),
        },
        ownerReferences: [ownerReferenceTo(dObj, 'apps/v1', 'Deployment')],
      },
      spec: {
        replicas: 0,
        minReadySeconds: d.spec?.minReadySeconds,
        selector: { ...d.spec!.selector, matchLabels: { ...d.spec!.selector.matchLabels, [HASH_LABEL]: hash } },
        template,
      },
    };
    return store.create(REPLICASETS, rs as unknown as KubeObject);
  }

  function rollingUpdate(d: KubeObject, newRS: KubeObject, olds: KubeObject[], replicas: number, maxSurge: number, maxUnavailable: number): void {
    const all = [newRS, ...olds];
    // Scale the new ReplicaSet up as far as the surge allows (or down to the target).
    const newCount = specReplicas(newRS);
    if (newCount > replicas) scale(newRS, replicas, d);
    else if (newCount < replicas) {
      const total = all.reduce((a, rs) => a + specReplicas(rs), 0);
      const up = Math.min(replicas + maxSurge - total, replicas - newCount);
      if (up > 0) scale(newRS, newCount + up, d);
    }
    // Scale old ReplicaSets down as far as availability allows.
    const fresh = all.map(rs => store.tryGet(REPLICASETS, rs.metadata.namespace, rs.metadata.name!) ?? rs);
    const [nrs, ...oldRSs] = fresh;
    const minAvailable = replicas - maxUnavailable;
    const available = (rs: KubeObject) => asRS(rs).status?.availableReplicas ?? 0;
    const allPods = fresh.reduce((a, rs) => a + specReplicas(rs), 0);
    const newUnavailable = Math.max(0, specReplicas(nrs) - available(nrs));
    let budget = allPods - minAvailable - newUnavailable;
    if (budget <= 0) return;
    // First the old pods that are not available anyway.
    for (const rs of oldRSs) {
      if (budget <= 0) break;
      const unhealthy = Math.min(budget, specReplicas(rs) - available(rs));
      if (unhealthy > 0) {
        scale(rs, specReplicas(rs) - unhealthy, d);
        budget -= unhealthy;
      }
    }
    const current = fresh.map(rs => store.tryGet(REPLICASETS, rs.metadata.namespace, rs.metadata.name!) ?? rs);
    const availableNow = current.reduce((a, rs) => a + Math.min(available(rs), specReplicas(rs)), 0);
    let down = availableNow - minAvailable;
    for (const rs of current.slice(1)) {
      if (down <= 0) break;
      const n = Math.min(specReplicas(rs), down);
      if (n > 0) {
        scale(rs, specReplicas(rs) - n, d);
        down -= n;
      }
    }
  }

  function recreate(d: KubeObject, newRS: KubeObject, olds: KubeObject[], replicas: number): void {
    for (const rs of olds) scale(rs, 0, d);
    const oldPodsLeft = olds.some(rs => (asRS(store.tryGet(REPLICASETS, rs.metadata.namespace, rs.metadata.name!) ?? rs).status?.replicas ?? 0) > 0);
    if (!oldPodsLeft) scale(newRS, replicas, d);
  }

  function cleanupHistory(d: V1Deployment, olds: KubeObject[]): void {
    const limit = d.spec?.revisionHistoryLimit ?? 10;
    const idle = olds.filter(rs => specReplicas(rs) === 0 && !asRS(rs).status?.replicas);
    for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) store.delete(REPLICASETS, rs.metadata.namespace, rs.metadata.name!);
  }

  function writeStatus(dObj: KubeObject, newRS: KubeObject | undefined, all: KubeObject[], maxUnavailable: number, created: boolean): void {
    const d = dObj as unknown as V1Deployment;
    const replicas = d.spec?.replicas ?? 1;
    const sum = (f: (rs: V1ReplicaSet) => number | undefined) => all.reduce((a, rs) => a + (f(asRS(rs)) ?? 0), 0);
    const nrs = newRS ? asRS(store.tryGet(REPLICASETS, newRS.metadata.namespace, newRS.metadata.name!) ?? newRS) : undefined;
    const status = {
      observedGeneration: dObj.metadata.generation ?? 1,
      replicas: sum(rs => rs.status?.replicas),
      updatedReplicas: nrs?.status?.replicas ?? 0,
      readyReplicas: sum(rs => rs.status?.readyReplicas),
      availableReplicas: sum(rs => rs.status?.availableReplicas),
      unavailableReplicas: 0,
    };
    status.unavailableReplicas = Math.max(0, Math.max(replicas, status.replicas) - status.availableReplicas);
    const rsName = newRS?.metadata.name ?? '';
    let conditions: V1DeploymentCondition[] = d.status?.conditions ?? [];
    conditions = setCondition(
      conditions,
      status.availableReplicas >= replicas - maxUnavailable
        ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
        : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
      true,
    );
    const complete =
      status.updatedReplicas === replicas &&
      status.replicas === replicas &&
      status.availableReplicas === replicas &&
      (nrs?.status?.availableReplicas ?? 0) === replicas;
    const progressing: V1DeploymentCondition = d.spec?.paused
      ? { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' }
      : complete
        ? { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rsName}" has successfully progressed.` }
        : created
          ? { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${rsName}"` }
          : { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rsName}" is progressing.` };
    // progressDeadlineSeconds: a rollout whose replica counts stop moving for that long
    // gets Progressing=False ProgressDeadlineExceeded; any progress moves lastUpdateTime.
    const before = d.status?.conditions?.find(c => c.type === 'Progressing');
    const counts = (x: object | undefined) => stableJSON(x && { ...x, conditions: undefined, observedGeneration: undefined });
    const progressed = counts(d.status) !== counts(status);
    let cond = progressing;
    if (!complete && !d.spec?.paused) {
      const deadlineMs = (d.spec?.progressDeadlineSeconds ?? 600) * 1000;
      const lastProgress = progressed || !before ? Date.now() : new Date((before.lastUpdateTime ?? before.lastTransitionTime) as unknown as string).getTime();
      if (!progressed && before && (before.reason === 'ProgressDeadlineExceeded' || lastProgress + deadlineMs <= Date.now()))
        cond = { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${rsName}" has timed out progressing.` };
      else queue.addAfter(keyOf(dObj.metadata.namespace, dObj.metadata.name!), lastProgress + deadlineMs - Date.now() + 10);
    }
    conditions = setCondition(conditions, cond, true);
    if (progressed && cond.status === 'True') {
      conditions = conditions.map(c => (c.type === 'Progressing' ? { ...c, lastUpdateTime: new Date().toISOString() as unknown as Date } : c));
    }
    const next = { ...status, conditions, ...(d.status?.collisionCount ? { collisionCount: d.status.collisionCount } : {}) };
    if (stableJSON(next) === stableJSON(d.status ?? {})) return;
    store.mutate(
      DEPLOYMENTS,
      dObj.metadata.namespace,
      dObj.metadata.name!,
      o => {
        o.status = next;
      },
      { skipAdmission: true },
    );
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
