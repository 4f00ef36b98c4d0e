// Image pulls on one node as containerd does them: a per-node cache, the pull
// policy, the profile's first-pull latency (a timer, not a busy wait), and the
// platform match that makes a Windows image of another build fail at pull time
// (docs/windows-commands.md §7: "no match for platform in manifest: not found").

import type { RuntimeContext } from './context.ts';
import { findImage, imageDigest, parseImageRef, selectManifest, type ImageEntry, type ImageManifest, type PlatformWanted } from './images.ts';

/** A failed pull; `message` is the rpc error text the kubelet puts in the event and the waiting state. */
export class PullError extends Error {
  constructor(
    readonly reason: 'ErrImagePull' | 'ErrImageNeverPull' | 'InvalidImageName',
    message: string,
  ) {
    super(message);
  }
}

export interface PulledImage {
  entry: ImageEntry;
  manifest: ImageManifest;
  /** `repo@sha256:…` as containerStatuses[].imageID shows it. */
  imageID: string;
  /** Canonical `repo:tag` (containerStatuses[].image). */
  image: string;
  /** Set when this call really pulled (for the Pulled event); undefined when cached. */
  pulledInMs?: number;
}

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

export function defaultPullPolicy(image: string): PullPolicy {
  const r = parseImageRef(image);
  return r.tag === 'latest' && !r.digest ? 'Always' : 'IfNotPresent';
}

export class ImageCache {
  private have = new Map<string, PulledImage>();
  private inflight = new Map<string, Promise<PulledImage>>();

  /** onPulled: an image newly present (the node reports its images in status.images). */
  /** runtime: the node's container runtime ("containerd", "docker"): its words for a failed pull. */
  constructor(
    private ctx: RuntimeContext,
    private onPulled?: () => void,
    private runtime = 'containerd',
  ) {}

  /** Images present on the node (for nodes' status.images, if wanted). */
  list(): PulledImage[] {
    return [...this.have.values()];
  }

  isPresent(image: string, want: PlatformWanted): boolean {
    return this.have.has(this.key(image, want));
  }

  private key(image: string, want: PlatformWanted): string {
    const r = parseImageRef(image, this.ctx.profile.registryMirrors);
    return `${r.repo}:${r.tag}|${want.os}|${want.build ?? ''}|${want.hyperv ? 'hv' : ''}`;
  }

  /** Resolves the image for the platform or throws PullError. Honours the pull policy. */
  async pull(image: string, policy: PullPolicy, want: PlatformWanted, signal: AbortSignal): Promise<PulledImage> {
    if (!image.trim() || /\s/.test(image.trim()) || image !== image.trim())
      throw new PullError('InvalidImageName', `Failed to apply default image tag "${image}": couldn't parse image name "${image}": invalid reference format`);
    const key = this.key(image, want);
    const cached = this.have.get(key);
    if (cached && policy !== 'Always') return { ...cached, pulledInMs: undefined };
    if (!cached && policy === 'Never') throw new PullError('ErrImageNeverPull', `Container image "${image}" is not present with pull policy of Never`);
    let p = this.inflight.get(key);
    if (!p) {
      p = this.fetch(image, want, !cached, signal).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    const got = await p;
    const fresh = !this.have.has(key);
    this.have.set(key, { ...got, pulledInMs: undefined });
    if (fresh) this.onPulled?.();
    return got;
  }

  /**
   * The profile's first-pull latency: by the image's size where the profile gives a pull rate
   * (pullLatency: the size at mbPerSecond, times the profile's time scale), else per OS
   * (latencies.*PullMs), else imagePullLatencyMs.
   */
  private firstPullMs(want: PlatformWanted, size: number | undefined): number {
    const rate = this.ctx.profile.pullLatency;
    if (rate && size !== undefined) return Math.round((size / (rate.mbPerSecond * 1024 * 1024)) * 1000 * rate.scale);
    const l = this.ctx.profile.latencies;
    return (want.os === 'windows' ? l?.windowsPullMs : l?.linuxPullMs) ?? this.ctx.profile.imagePullLatencyMs ?? 0;
  }

  private async fetch(image: string, want: PlatformWanted, firstPull: boolean, signal: AbortSignal): Promise<PulledImage> {
    const started = Date.now();
    const r = parseImageRef(image, this.ctx.profile.registryMirrors);
    const canonical = `${r.repo}:${r.tag}`;
    const found = findImage(r);
    const latencyMs = firstPull ? this.firstPullMs(want, found && selectManifest(found, want)?.size) : 0;
    if (latencyMs > 0 && !(await this.ctx.sleep(latencyMs, signal)))
      throw new PullError('ErrImagePull', `rpc error: code = Canceled desc = failed to pull and unpack image "${canonical}": context canceled`);
    const entry = found;
    if (!entry)
      throw new PullError(
        'ErrImagePull',
        `rpc error: code = NotFound desc = failed to pull and unpack image "${canonical}": failed to resolve reference "${canonical}": ${canonical}: not found`,
      );
    const manifest = selectManifest(entry, want);
    if (!manifest)
      throw new PullError(
        'ErrImagePull',
        // Docker's daemon names the platform it looked for (https://github.com/actions/runner-images/issues/3422).
        this.runtime === 'docker'
          ? `rpc error: code = Unknown desc = Error response from daemon: no matching manifest for ${[`${want.os}/amd64`, want.build].filter(Boolean).join(' ')} in the manifest list entries`
          : `rpc error: code = NotFound desc = failed to pull and unpack image "${canonical}": no match for platform in manifest: not found`,
      );
    return { entry, manifest, image: canonical, imageID: `${r.repo}@${imageDigest(entry)}`, pulledInMs: Date.now() - started };
  }
}

/**
 * The waiting message of ImagePullBackOff: kubelets from 1.32 append the pull error
 * (https://github.com/kubernetes/kubernetes/pull/127918); older ones say only which image.
 */
export function backOffMessage(image: string, error: string, kubeletVersion: string): string {
  const m = /^v?(\d+)\.(\d+)/.exec(kubeletVersion);
  const from132 = !m || Number(m[1]) > 1 || Number(m[2]) >= 32;
  return from132 ? `Back-off pulling image "${image}": ErrImagePull: ${error}` : `Back-off pulling image "${image}"`;
}

/** "1.2s" / "512ms" as the kubelet formats durations (Go time.Duration). */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(ms, 0).toFixed(0)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${+s.toFixed(3)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${+(s - m * 60).toFixed(3)}s`;
}
