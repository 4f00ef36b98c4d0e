// The run's namespace: created with the run label, deleted by watching it go (the watch is
// opened before the delete, as hydrophone's cleanup does).

import type { V1Namespace, V1Pod } from '@kubernetes/client-node';
import { HEARTBEAT_ANNOTATION } from '../labels.ts';
import { apiErrorMessage, apiStatusCode } from './apiError.ts';
import type { KubeClients } from './types.ts';
import { WaitTimeoutError, watchUntil } from './watch.ts';
import { POD_SECURITY_PRIVILEGED } from './podSecurity.ts';
import { listAll } from './list.ts';
import { admissionRefusal } from './admissionRefusal.ts';

/**
 * Creates the run namespace labelled privileged for Pod Security (enforce, audit, warn), so
 * HostProcess, hostPath and hostNetwork fixtures are admitted. A cluster whose policy refuses
 * those labels (any admission: Pod Security, a ValidatingAdmissionPolicy, a webhook) gets the
 * namespace without them (told through `onLabelsRefused`, naming the admission and its words): its
 * fixtures that need privilege are then refused one by one, and their features are n/a.
 */
export async function createRunNamespace(
  kube: KubeClients,
  name: string,
  labels: Record<string, string>,
  annotations: Record<string, string> = {},
  onLabelsRefused?: (message: string) => void,
): Promise<void> {
  const create = (l: Record<string, string>) => kube.core.createNamespace({ body: { metadata: { name, labels: l, annotations } } });
  try {
    await create({ ...labels, ...POD_SECURITY_PRIVILEGED });
  } catch (e) {
    // Retried after a reset, the create may have landed the first time: ours if it has our label.
    const runLabel = Object.entries(labels)[0];
    if (
      apiStatusCode(e) === 409 &&
      runLabel &&
      (await kube.core.readNamespace({ name }).then(
        ns => ns.metadata?.labels?.[runLabel[0]] === runLabel[1],
        () => false,
      ))
    )
      return;
    const code = apiStatusCode(e);
    if (code === 409) throw new Error(`namespace ${name} already exists; run "wincheck cleanup" first`, { cause: e });
    // Refused by an admission of any kind (Pod Security, a policy, a webhook in its own words): tried again without the labels.
    const refusal = admissionRefusal(e);
    if (refusal) {
      onLabelsRefused?.(
        `The cluster's ${refusal.admission} refused the Pod Security labels on namespace ${name} (${refusal.text}); created it without them: fixtures that need privilege will be refused and their features reported n/a.`,
      );
      try {
        await create(labels);
        return;
      } catch (e2) {
        throw new Error(`failed to create namespace ${name}: ${apiErrorMessage(e2)}`, { cause: e2 });
      }
    }
    throw new Error(`failed to create namespace ${name}: ${apiErrorMessage(e)}`, { cause: e });
  }
}

/** Drops the heartbeat (a kept namespace is not a live run: `wincheck cleanup` may remove it). */
export async function endLease(kube: KubeClients, name: string): Promise<void> {
  await kube.core.patchNamespace({ name, body: [{ op: 'remove', path: `/metadata/annotations/${HEARTBEAT_ANNOTATION.replace('/', '~1')}` }] });
}

/** How often a namespace deletion that is still going says what holds it. */
const PROGRESS_MS = 20_000;
/** Past the longest grace period of the namespace's pods: the kubelet's stop, then the namespace controller's sweep. */
const AFTER_GRACE_MS = 60_000;

/**
 * What still holds a terminating namespace: the namespace controller's conditions that are True
 * (NamespaceContentRemaining, NamespaceFinalizersRemaining, NamespaceDeletionDiscoveryFailure ...,
 * with their messages) and its pods still there (terminating since, grace, finalizers).
 * https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/namespace-v1/#NamespaceStatus
 */
export function describeTerminating(ns: V1Namespace | undefined, pods: V1Pod[]): string {
  const conditions = (ns?.status?.conditions ?? []).filter(c => c.status === 'True').map(c => `${c.type}: ${c.message ?? c.reason ?? ''}`);
  const left = pods.map(p => {
    const m = p.metadata;
    const bits = [
      m?.deletionTimestamp ? `terminating since ${new Date(m.deletionTimestamp).toISOString()}` : 'not yet deleted',
      `grace ${m?.deletionGracePeriodSeconds ?? p.spec?.terminationGracePeriodSeconds ?? 30}s`,
      ...(m?.finalizers?.length ? [`finalizers ${m.finalizers.join(', ')}`] : []),
    ];
    return `${m?.name} (${bits.join(', ')})`;
  });
  const parts = [
    ns ? `phase ${ns.status?.phase ?? 'unknown'}${ns.spec?.finalizers?.length ? `, finalizers ${ns.spec.finalizers.join(', ')}` : ''}` : 'gone',
    ...conditions,
    ...(left.length ? [`pods: ${left.join('; ')}`] : []),
  ];
  return parts.join('; ');
}

/**
 * Deletes the namespace with background propagation (as kubectl does: the garbage collector and
 * the namespace controller remove the content, and a stalled foreground deletion cannot hold the
 * namespace) and watches it go. The deadline is at least the longest grace period of its pods
 * plus a minute; every 20 s the log says what still holds it, and at the deadline the error does.
 */
export async function deleteNamespaceAndWait(kube: KubeClients, name: string, timeoutMs: number, log?: (line: string) => void): Promise<void> {
  const pods = () =>
    listAll(q => kube.core.listNamespacedPod({ namespace: name, ...q })).then(
      l => l.items,
      () => [] as V1Pod[],
    );
  const namespace = () => kube.core.readNamespace({ name }).catch(() => undefined);
  const before = await pods();
  const grace = Math.max(0, ...before.map(p => p.spec?.terminationGracePeriodSeconds ?? 30));
  const deadline = before.length ? Math.max(timeoutMs, grace * 1000 + AFTER_GRACE_MS) : timeoutMs;
  const started = Date.now();
  const gone = watchUntil<V1Namespace, true>({
    kube,
    path: '/api/v1/namespaces',
    fieldSelector: `metadata.name=${name}`,
    list: () => listAll(q => kube.core.listNamespace({ fieldSelector: `metadata.name=${name}`, ...q })),
    onList: items => (items.length === 0 ? true : undefined),
    check: (_ns, type) => (type === 'DELETED' ? true : undefined),
    what: `namespace ${name} to be deleted`,
    describe: ns => (ns ? `phase ${ns.status?.phase ?? 'unknown'}` : 'not seen'),
    timeoutMs: deadline,
    signal: kube.signal,
  });
  const progress = setInterval(() => {
    void Promise.all([namespace(), pods()]).then(([ns, p]) => {
      if (ns) log?.(`Namespace ${name} still terminating after ${Math.round((Date.now() - started) / 1000)}s: ${describeTerminating(ns, p)}.`);
    });
  }, PROGRESS_MS);
  try {
    try {
      await kube.core.deleteNamespace({ name, propagationPolicy: 'Background' });
    } catch (e) {
      if (apiStatusCode(e) !== 404) {
        gone.catch(() => undefined);
        throw new Error(`failed to delete namespace ${name}: ${apiErrorMessage(e)}`, { cause: e });
      }
    }
    await gone;
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    const [ns, p] = await Promise.all([namespace(), pods()]);
    throw new WaitTimeoutError(`namespace ${name} is still there after ${Math.round(deadline / 1000)}s: ${describeTerminating(ns, p)}`, { cause: e });
  } finally {
    clearInterval(progress);
  }
}
