// The harness's own means failing: it could not schedule, pull, exec, read logs, forward a port,
// was refused (403, a webhook, a quota) or could not reach a kubelet. Such a failure says nothing
// about the feature under test, so the check's outcome is `error`, naming the means, unless the
// feature's subject is that very means (Feature.subject: work.exec-logs is about exec).
// lib/cluster throws MeansError; lib/catalog/outcome.ts decides; no probe special-cases it.

import { ApiException } from '@kubernetes/client-node';
import { apiErrorMessage } from './apiError.ts';
import { errorText } from '../../util/errorText.ts';
import { isNoRoom, isPlatformMismatch, OUT_OF_REASON, pullFailureText } from './podFailures.ts';

export { errorText };

export type Means =
  | 'scheduling' // the pod found no node (FailedScheduling)
  | 'capacity' // no node had the room: Insufficient cpu/memory, Too many pods, the kubelet's OutOfcpu...
  | 'volume-binding' // a claim stayed unbound, so its pod could not be scheduled
  | 'image-pull'
  | 'image-platform' // the image has no manifest for the node's OS build (containerd's words)
  | 'sandbox' // FailedCreatePodSandBox
  | 'workload-controller' // a Deployment or DaemonSet fixture made no pod at all
  // a workload's own controller never observed it (no status.observedGeneration): lib/cluster/controllerObserved.ts
  | 'deployment-controller'
  | 'daemonset-controller'
  | 'statefulset-controller'
  | 'replicaset-controller'
  | 'exec'
  | 'attach'
  | 'logs'
  | 'port-forward'
  | 'node-access' // HostProcess pod or SSH to the node
  | 'forbidden' // 403 from RBAC or Pod Security admission
  | 'webhook' // an admission webhook refused or failed
  | 'quota' // a ResourceQuota or LimitRange refused
  | 'kubelet' // the API server could not reach the node's kubelet
  | 'fixture'; // a fixture could not be rendered or created for another reason

export class MeansError extends Error {
  /** The pod that waited on the means, when one did (capacity errors add its numbers, lib/run/capacity.ts). */
  readonly pod?: { namespace: string; name: string };
  constructor(
    readonly means: Means,
    message: string,
    options?: { cause?: unknown; pod?: { namespace?: string; name?: string } },
  ) {
    super(message, options);
    this.name = 'MeansError';
    if (options?.pod?.namespace && options.pod.name) this.pod = { namespace: options.pod.namespace, name: options.pod.name };
  }
}

/** What a refusal by the API server is, from its status code and words; undefined: not one of ours. */
export function refusalMeans(code: number | undefined, message: string): Means | undefined {
  if (/admission webhook|calling webhook|failed calling webhook/i.test(message)) return 'webhook';
  if (/exceeded quota|forbidden: exceeded|maximum .* usage|LimitRange|must specify limits/i.test(message)) return 'quota';
  if (code === 403 || /Unexpected server response: 403|\(HTTP 403\)|\bis forbidden: User\b/i.test(message)) return 'forbidden';
  if (/violates PodSecurity/i.test(message)) return 'forbidden';
  if ((code === 500 || code === 502 || code === 503) && /kubelet|:10250|dial tcp|no route to host|connection refused|i\/o timeout/i.test(message))
    return 'kubelet';
  return undefined;
}

/**
 * `e` as a MeansError: itself, one in its cause chain, or an ApiException classified by
 * refusalMeans; `fallback` names the means for anything else (the transport that failed).
 */
export function asMeansError(e: unknown, fallback?: Means, context?: string): MeansError | undefined {
  for (let c: unknown = e; c instanceof Error; c = (c as { cause?: unknown }).cause) if (c instanceof MeansError) return c;
  const api = apiExceptionIn(e);
  const text = api ? apiErrorMessage(api) : errorText(e);
  const means = refusalMeans(api?.code, text) ?? fallback;
  if (!means) return undefined;
  return new MeansError(means, context ? `${context}: ${text}` : text, { cause: e });
}

export function apiExceptionIn(e: unknown): ApiException<unknown> | undefined {
  for (let c: unknown = e; c instanceof Error; c = (c as { cause?: unknown }).cause) if (c instanceof ApiException) return c;
  return undefined;
}

/** The means a pod's failed start points at (PodStartError reasons), or undefined: the pod's own failure. */
export function podStartMeans(reason: string, message: string, events: readonly string[] = []): Means | undefined {
  if (reason === 'FailedScheduling')
    return /unbound .*PersistentVolumeClaim|volume node affinity|pod has unbound/i.test(message)
      ? 'volume-binding'
      : isNoRoom(message)
        ? 'capacity'
        : 'scheduling';
  if (OUT_OF_REASON.test(reason)) return 'capacity';
  // Kubelets before 1.32 say only 'Back-off pulling image "X"': the cause is in the pod's events.
  if (reason === 'ErrImagePull' || reason === 'ImagePullBackOff' || reason === 'InvalidImageName')
    return isPlatformMismatch(pullFailureText(message, events)) ? 'image-platform' : 'image-pull';
  if (reason === 'FailedCreatePodSandBox') return 'sandbox';
  return undefined;
}
