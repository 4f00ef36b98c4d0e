// Small facts about objects that several controllers need: pod readiness, controller
// ownership, the owner reference a controller stamps on what it creates.

import type { V1OwnerReference, V1Pod, V1PodCondition } from '@kubernetes/client-node';
import type { KubeObject } from '../api/store.ts';

export const asPod = (o: KubeObject) => o as unknown as V1Pod;

export function podCondition(pod: V1Pod, type: string): V1PodCondition | undefined {
  return pod.status?.conditions?.find(c => c.type === type);
}

export function isPodReady(pod: V1Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/** Ready for at least minReadySeconds (available, in controller terms). */
export function isPodAvailable(pod: V1Pod, minReadySeconds = 0, now = Date.now()): boolean {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  const since = ready.lastTransitionTime ? new Date(ready.lastTransitionTime as unknown as string).getTime() : 0;
  return since + minReadySeconds * 1000 <= now;
}

export function isPodTerminal(pod: V1Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** Counts toward a controller's replicas: neither finished nor being deleted. */
export function isPodActive(pod: V1Pod): boolean {
  return !isPodTerminal(pod) && !pod.metadata?.deletionTimestamp;
}

export function controllerRef(o: KubeObject): V1OwnerReference | undefined {
  return o.metadata.ownerReferences?.find(r => r.controller);
}

export function isControlledBy(o: KubeObject, owner: KubeObject): boolean {
  return controllerRef(o)?.uid === owner.metadata.uid;
}

export function ownerReferenceTo(owner: KubeObject, apiVersion: string, kind: string): V1OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

const nowISO = () => new Date().toISOString() as unknown as Date;

/** Sets a condition, keeping lastTransitionTime when the status did not change. */
export function setCondition<C extends { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: Date; lastUpdateTime?: Date }>(
  list: C[] | undefined,
  next: C,
  withUpdateTime = false,
): C[] {
  const out = [...(list ?? [])];
  const i = out.findIndex(c => c.type === next.type);
  const old = i >= 0 ? out[i] : undefined;
  const unchanged = old && old.status === next.status && old.reason === next.reason && old.message === next.message;
  const merged = unchanged
    ? old!
    : {
        ...next,
        lastTransitionTime: old && old.status === next.status ? old.lastTransitionTime : nowISO(),
        ...(withUpdateTime ? { lastUpdateTime: nowISO() } : {}),
      };
  if (i >= 0) out[i] = merged;
  else out.push(merged);
  return out;
}

/** A hash of a pod template the way controllers name revisions: fnv-1a, safe-encoded. */
export function templateHash(template: unknown, collisionCount = 0): string {
  let h = 0x811c9dc5;
  const s = stableJSON(template) + (collisionCount ? String(collisionCount) : '');
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return safeEncode(String(h));
}

const SAFE = 'bcdfghjklmnpqrstvwxz2456789';
/** k8s.io/apimachinery rand.SafeEncodeString: no vowels, no look-alike characters. */
function safeEncode(s: string): string {
  return [...s].map(c => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

export function stableJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJSON).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter(k => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map(k => `${JSON.stringify(k)}:${stableJSON((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
