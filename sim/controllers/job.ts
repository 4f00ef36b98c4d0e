// The Job controller: runs pods stamped from the template (generateName "<job>-",
// job-name labels, controller ownerReference so the garbage collector removes them with
// the Job) until spec.completions pods succeeded, or more than spec.backoffLimit failed.
// One pod at a time is enough for the sim's callers (parallelism above 1 is capped).
// Status: active / ready / succeeded / failed, startTime, completionTime and the
// terminal conditions (SuccessCriteriaMet + Complete, or FailureTarget + Failed).

import type { V1Job, V1JobCondition, V1Pod } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { createPodFromTemplate } from './podFromTemplate.ts';
import { asPod, controllerRef, isControlledBy, isPodActive, isPodReady, setCondition } from './objects.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

export const JOBS = 'jobs.batch';
const SOURCE = 'job-controller';

const isTerminal = (job: V1Job) => !!job.status?.conditions?.some(c => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');

export function startJobController({ store }: ControllerContext): Stoppable {
  const queue = new WorkQueue('job-controller', key => sync(key));
  const sub = store.onAny(
    guarded('job-controller', (bucket, e) => {
      if (bucket === JOBS) queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
      if (bucket === 'pods') {
        const ref = controllerRef(e.object);
        if (ref?.kind === 'Job') queue.add(keyOf(e.object.metadata.namespace, ref.name));
      }
    }),
  );
  for (const j of store.list(JOBS).items) queue.add(keyOf(j.metadata.namespace, j.metadata.name!));

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    let obj = store.tryGet(JOBS, ns, name);
    if (!obj || obj.metadata.deletionTimestamp) return;
    if (!(obj as unknown as V1Job).spec?.selector) obj = generateSelector(obj);
    const job = obj as unknown as V1Job;
    const owned = store
      .list('pods', { namespace: ns })
      .items.filter(p => isControlledBy(p, obj))
      .map(asPod);
    const active = owned.filter(isPodActive);
    const succeeded = owned.filter(p => p.status?.phase === 'Succeeded').length;
    // restartPolicy OnFailure: the kubelet restarts in place; each restart counts as a failure.
    const restarts = owned.reduce((n, p) => n + (p.status?.containerStatuses ?? []).reduce((m, c) => m + (c.restartCount ?? 0), 0), 0);
    const failed = owned.filter(p => p.status?.phase === 'Failed').length + restarts;
    const completions = job.spec?.completions ?? 1;
    const backoffLimit = job.spec?.backoffLimit ?? 6;
    let conditions = job.status?.conditions;
    let completionTime = job.status?.completionTime;
    const now = new Date().toISOString() as unknown as Date;
    if (!isTerminal(job)) {
      if (succeeded >= completions) {
        conditions = setCondition(conditions, {
          type: 'SuccessCriteriaMet',
          status: 'True',
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        } as V1JobCondition);
        conditions = setCondition(conditions, {
          type: 'Complete',
          status: 'True',
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        } as V1JobCondition);
        completionTime = now;
        recordEvent(store, obj, 'Normal', 'Completed', 'Job completed', SOURCE);
      } else if (failed > backoffLimit) {
        conditions = setCondition(conditions, {
          type: 'FailureTarget',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        } as V1JobCondition);
        conditions = setCondition(conditions, {
          type: 'Failed',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        } as V1JobCondition);
        recordEvent(store, obj, 'Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', SOURCE);
      } else if (!job.spec?.suspend && active.length === 0 && (job.spec?.parallelism ?? 1) > 0) {
        const pod = createPod(obj);
        if (pod) active.push(asPod(pod));
      }
    }
    const terminal = conditions?.some(c => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
    if (terminal) for (const p of active) deletePod(obj, p);
    const status = {
      ...job.status,
      startTime: job.status?.startTime ?? now,
      active: terminal ? 0 : active.length,
      ready: terminal ? 0 : active.filter(isPodReady).length,
      succeeded,
      failed,
      ...(conditions ? { conditions } : {}),
      ...(completionTime ? { completionTime } : {}),
    };
    if (JSON.stringify(status) === JSON.stringify(job.status)) return;
    store.mutate(
      JOBS,
      ns,
      name,
      o => {
        (o as unknown as V1Job).status = status;
      },
      { skipAdmission: true },
    );
  }

  /** manualSelector unset: the API server's generated selector on the Job's uid, and the template labels to match. */
  function generateSelector(obj: KubeObject): KubeObject {
    const uid = obj.metadata.uid!,
      name = obj.metadata.name!;
    return store.mutate(
      JOBS,
      obj.metadata.namespace,
      name,
      o => {
        const j = o as unknown as V1Job;
        if (!j.spec || j.spec.selector) return;
        j.spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
        j.spec.template.metadata ??= {};
        j.spec.template.metadata.labels = {
          ...j.spec.template.metadata.labels,
          'batch.kubernetes.io/controller-uid': uid,
          'batch.kubernetes.io/job-name': name,
          'controller-uid': uid,
          'job-name': name,
        };
      },
      { skipAdmission: true },
    );
  }

  function createPod(owner: KubeObject): KubeObject | undefined {
    return createPodFromTemplate(store, owner, 'batch/v1', 'Job', (owner as unknown as V1Job).spec?.template, SOURCE);
  }

  function deletePod(jobObj: KubeObject, p: V1Pod): void {
    try {
      store.delete('pods', jobObj.metadata.namespace, p.metadata!.name!);
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 404)) throw err;
    }
    recordEvent(store, jobObj, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata!.name}`, SOURCE);
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
