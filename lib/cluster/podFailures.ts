// What a kubelet's or runtime's failure text says, by the kind of failure, in every wording real
// nodes print (containerd and Docker/dockershim, old and new kubelets; samples in
// test/data/real-outputs/). One matcher per kind: every reader of pod failures uses these.

import type { V1Pod } from '@kubernetes/client-node';

/**
 * The image (or the pause image) has no variant for the node's OS build:
 * - containerd: "no match for platform in manifest: not found";
 * - Docker pulling a manifest list: "no matching manifest for windows/amd64 10.0.17763 in the manifest list entries";
 * - Docker pulling a single-arch image: "a Windows version 10.0.16299-based image is incompatible with a 10.0.14393 host"
 *   (https://github.com/moby/moby/pull/36327);
 * - HCS starting it anyway: "The container operating system does not match the host operating system." and its
 *   code 0xc0370101 (https://learn.microsoft.com/en-us/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
export const PLATFORM_MISMATCH =
  /no match(?:ing)? (?:for )?(?:platform|manifest)|operating system (?:of the container )?does not match|\b0xc0370101\b|a Windows version [\d.]+-based image is incompatible with a [\d.]+ host/i;

export function isPlatformMismatch(text: string): boolean {
  return PLATFORM_MISMATCH.test(text);
}

/**
 * The registry says the image is not there, as the runtime reports it: containerd's gRPC NotFound
 * ("failed to resolve reference "X": X: not found", "no match for platform in manifest: not found"),
 * Docker's "manifest for X not found: manifest unknown" and "pull access denied for X, repository
 * does not exist or may require 'docker login'".
 */
const IMAGE_NOT_THERE = /\bcode = NotFound\b|\bmanifest unknown\b|\brepository does not exist\b|: not found\s*$/i;

/**
 * A pull failure that the kubelet's retries cannot fix: the image or tag does not exist, or has no
 * variant for the node's platform. Everything else may pass on a later attempt and is judged by
 * its repeats (PULL_REPEATS): a timeout or reset, a rate limit (429), credentials that are still
 * propagating (401/403, e.g. a registry role just granted), a layer in use while it is imported
 * (hcsshim::ImportLayer "being used by another process", test/data/real-outputs/22).
 */
export function isPermanentPullFailure(text: string): boolean {
  return isPlatformMismatch(text) || IMAGE_NOT_THERE.test(text);
}

/** A kubelet event about a failed image pull ("Failed to pull image "X": <error>"), not the bare "Error: ErrImagePull" after it. */
export function isPullFailureEvent(message: string): boolean {
  return /^Failed to pull image\b/i.test(message.trim());
}

/**
 * The scheduler's words for nodes without room (kube-scheduler's NodeResourcesFit: "Insufficient
 * cpu", "Insufficient pods", "Too many pods") and the kubelet's admission reasons (OutOfcpu,
 * OutOfmemory, OutOfpods) and their message ("Node didn't have enough resource: cpu, ...").
 */
export const NO_ROOM = /\bInsufficient [\w./-]+|\bToo many pods\b|\bNode didn't have enough resource\b/;
export const OUT_OF_REASON = /^OutOf[\w./-]+$/;

export function isNoRoom(text: string): boolean {
  return NO_ROOM.test(text);
}

/** containerd's CRI when a RuntimeClass handler is not in its config: the handler named, else undefined. */
export function unconfiguredHandlerOf(text: string): string | undefined {
  return /no runtime for "([^"]+)" is configured/.exec(text)?.[1];
}

/**
 * The runtime refused the user the container was to run as: hcsshim's logon failure "The user name
 * or password is incorrect." (ERROR_LOGON_FAILURE, 0x52e). Dockershim passes a pod's runAsUser to
 * Windows as a user name ("User":"1000" in the extra info), so a Linux-only field breaks the pod.
 */
export function userRefusedOf(text: string): { user?: string } | undefined {
  if (!/The user name or password is incorrect|\(0x52e\)/i.test(text)) return undefined;
  const user = /"User"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  return user !== undefined ? { user: user.replace(/\\\\/g, '\\') } : {};
}

/** The sandbox's network could not be set up (the CNI plugin or HNS failed). */
export function isSandboxNetworkFailure(text: string): boolean {
  return /NetworkPlugin cni failed|failed to (?:setup|set up) (?:pod )?network|failed to set up sandbox container .* network|hnsCall failed|HNS failed with error/i.test(
    text,
  );
}

/** The sandbox (pause) image could not be pulled: containerd's "failed to get sandbox image", dockershim's "failed pulling image". */
export function isSandboxImagePullFailure(text: string): boolean {
  return /failed to get sandbox image|failed pulling image|RunPodSandbox .* failed .* (?:pull|image)/i.test(text);
}

/** "Back-off pulling image "X"" with nothing after it: kubelets before 1.32 (kubernetes/kubernetes#127918 appends the error). */
const BARE_BACKOFF = /^\s*Back-off pulling image "[^"]*"\s*$/;

/**
 * The text that says why an image pull failed: the status message where it holds the error (kubelet
 * 1.32+ appends it to the back-off message), else also the pod's "Failed to pull image" events
 * (older kubelets name the cause only there), newest first.
 */
export function pullFailureText(message: string, events: readonly string[] = []): string {
  const pulls = events.filter(ev => /Failed to pull image|failed to pull and unpack|failed pulling image|no matching manifest/i.test(ev)).reverse();
  if (!pulls.length) return message;
  return BARE_BACKOFF.test(message) || !/rpc error|failed to pull|no match|manifest|Error response/i.test(message) ? [message, ...pulls].join(' | ') : message;
}

/** What a failure that will not fix itself (known from its first event) is; undefined: it may yet pass or is not one of these. */
export type FinalFailure =
  { kind: 'platform'; text: string } | { kind: 'runtime-handler'; handler: string; text: string } | { kind: 'user-refused'; user?: string; text: string };

/**
 * A pod event or status text that is final on its first sighting: the runtime has no such handler,
 * refuses the user, or the image has no variant for the node. The check can say so at once rather
 * than at its deadline.
 */
export function finalFailureOf(text: string): FinalFailure | undefined {
  const handler = unconfiguredHandlerOf(text);
  if (handler) return { kind: 'runtime-handler', handler, text };
  const user = userRefusedOf(text);
  if (user) return { kind: 'user-refused', ...user, text };
  if (isPlatformMismatch(text)) return { kind: 'platform', text };
  return undefined;
}

/** How often a pod's sandbox must fail in the same words before its wait ends (the kubelet retries with a 10 s back-off, doubling). */
export const SANDBOX_REPEATS = 3;

/**
 * How often an image pull must fail in the same words before its wait ends, when its words do not
 * say it is final. The kubelet retries a pull after 10 s, doubling to 5 minutes (pkg/kubelet:
 * flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff)): four attempts span about 70 s of
 * back-off plus the pulls, well inside a pod start; a failure that passes on a retry (a pull that
 * fails twice, then succeeds) does not reach it.
 */
export const PULL_REPEATS = 4;

/** A pod event as the classifier reads it (core/v1 or events.k8s.io: eventCount reads either's count). */
export interface PodEventSeen {
  /** The event object's name: a repeat folded into it (count, series) replaces the earlier sighting. */
  name: string;
  /** The pod the event is about (involvedObject.uid / regarding.uid): a pod of the same name before this one is not this one. */
  podUid?: string;
  type?: string;
  reason?: string;
  message?: string;
  count: number;
}

/** A pod's start that the evidence says will not come: its reason (as PodStartError reasons go), the words, how often, and what that reads as. */
export interface FinalPodFailure {
  reason: string;
  message: string;
  count: number;
  /** "its sandbox failed 3 times in the same words", "its image pull failed for good". */
  what: string;
}

/** Ids that differ between attempts (sandbox and container ids, hcs handles): not part of the failure's words. */
const sameWords = (m: string) => m.replace(/\b[0-9a-f]{12,}\b/gi, '<id>').trim();
/** A pull's words without its numbers: the local port of each attempt's connection, byte counts, durations differ from one try to the next. */
const samePullWords = (m: string) => sameWords(m).replace(/\d+/g, '#');

/** The pod's containers waiting on a pull (ErrImagePull, ImagePullBackOff), with their waiting messages. */
export function pullsWaiting(pod: V1Pod | undefined): { reason: string; message: string }[] {
  return [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])]
    .map(cs => cs.state?.waiting)
    .filter(w => w?.reason === 'ErrImagePull' || w?.reason === 'ImagePullBackOff')
    .map(w => ({ reason: w!.reason!, message: w!.message ?? '' }));
}

/**
 * What a pod's status and events say about its start, in whatever order the pod and its events
 * are seen (an event can arrive before the pod's status or after). The one judgement of evidence
 * for every pod wait (one pod, the hub's per-node pods, a workload's pods):
 * - a sandbox that failed SANDBOX_REPEATS times in the same words will not start by waiting (a
 *   broken pause image, a HostProcess pod an old kubelet runs as an ordinary container with a
 *   user no account has). A sandbox's network (CNI and HNS are often not ready on a new node)
 *   and a pause image pull that failed for any reason but the platform may pass on a retry.
 * - an image pull whose "Failed to pull image" events say it cannot pass (isPermanentPullFailure;
 *   kubelets before 1.32 name the cause only there, the waiting message is failFastReason's), or
 *   that failed PULL_REPEATS times in the same words. A pull that fails and then
 *   passes (ErrImagePull, ImagePullBackOff, then Running) ends nothing.
 * Nothing is judged before the pod itself is seen: events of an earlier pod of the same name
 * (another uid) are not this pod's.
 */
export class PodEvidence {
  private _pod?: V1Pod;
  private readonly _events = new Map<string, PodEventSeen>();

  /** A sighting of the pod; the verdict with what was seen so far. */
  pod(pod: V1Pod): FinalPodFailure | undefined {
    this._pod = pod;
    return this.verdict();
  }

  /** An event about the pod (added, or a repeat folded into it); DELETED events drop out. */
  event(ev: PodEventSeen, type = 'ADDED'): FinalPodFailure | undefined {
    if (type === 'DELETED') this._events.delete(ev.name);
    else this._events.set(ev.name, ev);
    return this.verdict();
  }

  verdict(): FinalPodFailure | undefined {
    const uid = this._pod?.metadata?.uid;
    if (!this._pod) return undefined;
    // A waiting message that says the pull is final is the pod's status, read by failFastReason.
    const pulling = pullsWaiting(this._pod)[0];
    const sandbox = new Map<string, FinalPodFailure>();
    const pulls = new Map<string, FinalPodFailure>();
    for (const ev of this._events.values()) {
      if (ev.podUid && uid && ev.podUid !== uid) continue;
      if (ev.type !== 'Warning') continue;
      const message = ev.message ?? '';
      if (ev.reason === 'Failed' && pulling && isPullFailureEvent(message)) {
        if (isPermanentPullFailure(message)) return { reason: pulling.reason, message, count: Math.max(1, ev.count), what: 'its image pull failed for good' };
        tally(pulls, message, ev.count, pulling.reason, 'image pull');
        continue;
      }
      if (ev.reason !== 'FailedCreatePodSandBox') continue;
      if (isSandboxNetworkFailure(message)) continue;
      if (isSandboxImagePullFailure(message) && !isPlatformMismatch(message)) continue;
      tally(sandbox, message, ev.count, 'FailedCreatePodSandBox', 'sandbox');
    }
    return [...sandbox.values()].find(f => f.count >= SANDBOX_REPEATS) ?? [...pulls.values()].find(f => f.count >= PULL_REPEATS);
  }
}

/** Adds one event's repeats to the failures seen in the same words. */
function tally(seen: Map<string, FinalPodFailure>, message: string, count: number, reason: string, what: string): void {
  const key = what === 'image pull' ? samePullWords(message) : sameWords(message);
  const f = seen.get(key) ?? { reason, message, count: 0, what: '' };
  f.count += Math.max(1, count);
  f.message = message;
  f.what = `its ${what} failed ${f.count} times in the same words`;
  seen.set(key, f);
}
