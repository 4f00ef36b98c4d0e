// Replay: a profile's `replay:` entries make the sim answer as a real node did, so a real output
// (test/data/real-outputs/) reaches the harness through its ordinary means. A command entry
// answers a command line run on a node (HostProcess pod or SSH) or in a container; a podFailure
// entry makes the kubelet fail matching pods at one stage. Each hit appends one JSON line
// {id, node, pod, command} to the file named by WINCHECK_SIM_REPLAY_LOG (read at each hit).

import { appendFileSync } from 'node:fs';
import type { V1Pod } from '@kubernetes/client-node';
import type { PodFailureStage, Profile, ReplayEntry } from '../profiles/types.ts';

export const REPLAY_LOG_ENV = 'WINCHECK_SIM_REPLAY_LOG';

export interface ReplayHit {
  id: string;
  node: string;
  /** namespace/name; absent for an SSH session. */
  pod?: string;
  /** The command line answered. */
  command?: string;
  /** A pod failure's stage and the images it matched against. */
  stage?: PodFailureStage;
  images?: string[];
}

const compiled = new WeakMap<ReplayEntry, { command?: RegExp; nodes?: RegExp; images?: RegExp; runtimeClassName?: RegExp }>();

/** A glob (`*`, `?`) as an anchored, case-insensitive regular expression. */
export function globRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

function patterns(e: ReplayEntry) {
  let p = compiled.get(e);
  if (!p) {
    const m = e.podFailure?.match;
    const glob = (g: string | undefined) => (g === undefined ? undefined : globRegExp(g));
    p = {
      command: e.command !== undefined ? new RegExp(e.command) : undefined,
      nodes: glob(e.podFailure ? m?.nodes : e.nodes),
      images: glob(m?.images),
      runtimeClassName: glob(m?.runtimeClassName),
    };
    compiled.set(e, p);
  }
  return p;
}

/** Appends the hit to WINCHECK_SIM_REPLAY_LOG, when set. */
export function recordHit(hit: ReplayHit): void {
  const file = process.env[REPLAY_LOG_ENV];
  if (file) appendFileSync(file, `${JSON.stringify(hit)}\n`);
}

/** The command entry that answers `commandLine` run `on` node `node` (first match), recorded as a hit. */
export function replayCommand(profile: Profile, on: 'node' | 'pod', node: string, pod: V1Pod | undefined, commandLine: string): ReplayEntry | undefined {
  for (const e of profile.replay ?? []) {
    if (e.podFailure || e.on !== on) continue;
    const p = patterns(e);
    if (p.nodes && !p.nodes.test(node)) continue;
    if (!p.command?.test(commandLine)) continue;
    recordHit({ id: e.id, node, ...(pod ? { pod: podKey(pod) } : {}), command: commandLine });
    return e;
  }
  return undefined;
}

/** Writes a command entry's answer; resolves with its exit code. */
export function answer(e: ReplayEntry, io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): number {
  if (e.stdout) io.stdout.write(e.stdout);
  if (e.stderr) io.stderr.write(e.stderr);
  return e.exitCode ?? 0;
}

export interface ReplayedFailure {
  id: string;
  reason?: string;
  message: string;
}

/**
 * The pod failure entry for this stage that matches the pod on `node` (every glob given must
 * match; images: the pod's images, or for the sandbox stage also its pause image), recorded as a hit.
 * `hits` counts this pod's hits by entry id: an entry with `times` stops matching after that many.
 */
export function replayPodFailure(
  profile: Profile,
  stage: PodFailureStage,
  node: string,
  pod: V1Pod,
  images: string[],
  hits?: Map<string, number>,
): ReplayedFailure | undefined {
  for (const e of profile.replay ?? []) {
    const f = e.podFailure;
    if (!f || f.stage !== stage) continue;
    const p = patterns(e);
    if (p.nodes && !p.nodes.test(node)) continue;
    if (p.images && !images.some(i => p.images!.test(i))) continue;
    if (p.runtimeClassName && !p.runtimeClassName.test(pod.spec?.runtimeClassName ?? '')) continue;
    if (f.times !== undefined && (hits?.get(e.id) ?? 0) >= f.times) continue;
    hits?.set(e.id, (hits.get(e.id) ?? 0) + 1);
    recordHit({ id: e.id, node, pod: podKey(pod), stage, images });
    return { id: e.id, reason: f.reason, message: f.message };
  }
  return undefined;
}

const podKey = (pod: V1Pod) => `${pod.metadata?.namespace}/${pod.metadata?.name}`;
