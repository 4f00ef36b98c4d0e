// What a kubelet's or runtime's failure text says, by the kind of failure, in every wording real
// nodes print (containerd and Docker/dockershim, old and new kubelets; samples in
// test/data/real-outputs/). One matcher per kind: every reader of pod failures uses these.

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

/** A pod's start that the evidence says will not come: its reason (as PodStartError reasons go), the words, how often. */
export interface FinalPodFailure {
  reason: string;
  message: string;
  count: number;
}

/** Ids that differ between attempts (sandbox and container ids, hcs handles): not part of the failure's words. */
const sameWords = (m: string) => m.replace(/\b[0-9a-f]{12,}\b/gi, '<id>').trim();

/**
 * What a pod's events say about its start, in whatever order the pod and its events are seen
 * (an event can arrive before the pod's status or after): a sandbox that failed SANDBOX_REPEATS
 * times in the same words will not start by waiting (a broken pause image, a HostProcess pod an
 * old kubelet runs as an ordinary container with a user no account has). Failures that may pass
 * on a retry do not end the wait: a sandbox's network (CNI and HNS are often not ready on a new
 * node), a pause image pull that failed for any reason but the platform, and every container
 * image pull (ErrImagePull and its back-off are the pod's status, read by failFastReason).
 * Nothing is judged before the pod itself is seen: events of an earlier pod of the same name
 * (another uid) are not this pod's.
 */
export class PodEvidence {
  private _uid?: string;
  private readonly _events = new Map<string, PodEventSeen>();

  /** A sighting of the pod; the verdict with what was seen so far. */
  pod(uid: string | undefined): FinalPodFailure | undefined {
    this._uid = uid;
    return this.verdict();
  }

  /** An event about the pod (added, or a repeat folded into it); DELETED events drop out. */
  event(ev: PodEventSeen, type = 'ADDED'): FinalPodFailure | undefined {
    if (type === 'DELETED') this._events.delete(ev.name);
    else this._events.set(ev.name, ev);
    return this.verdict();
  }

  verdict(): FinalPodFailure | undefined {
    if (!this._uid) return undefined;
    const sandbox = new Map<string, FinalPodFailure>();
    for (const ev of this._events.values()) {
      if (ev.podUid && ev.podUid !== this._uid) continue;
      if (ev.type !== 'Warning' || ev.reason !== 'FailedCreatePodSandBox') continue;
      const message = ev.message ?? '';
      if (isSandboxNetworkFailure(message)) continue;
      if (isSandboxImagePullFailure(message) && !isPlatformMismatch(message)) continue;
      const key = sameWords(message);
      const seen = sandbox.get(key) ?? { reason: 'FailedCreatePodSandBox', message, count: 0 };
      seen.count += Math.max(1, ev.count);
      seen.message = message;
      sandbox.set(key, seen);
    }
    return [...sandbox.values()].find(f => f.count >= SANDBOX_REPEATS);
  }
}
