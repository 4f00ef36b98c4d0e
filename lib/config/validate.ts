// Input checked up front, before anything is created in the cluster: each check returns what is
// wrong (or undefined) and the caller names the flag or the config file's field, so every bad
// input is one line and exit 2, never a verdict, a crash or a hang.

import { accessSync, constants, mkdirSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors.ts';
import { parseDuration } from '../../util/duration.ts';
import type { FileConfig } from './types.ts';
import type { RunFlags } from './resolve.ts';

/** Longest argument accepted: globs and URLs are short; 100 KB is a mistake (and crashes picomatch). */
export const MAX_ARG_LENGTH = 4096;
/** NAME_MAX on Linux and most file systems. */
const MAX_NAME_BYTES = 255;

// eslint-disable-next-line no-control-regex -- control characters are what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;

export function problemWithText(v: string): string | undefined {
  if (v.length > MAX_ARG_LENGTH) return `is ${v.length} characters long (at most ${MAX_ARG_LENGTH})`;
  if (CONTROL.test(v)) return 'contains a control character (newline, tab...)';
  return undefined;
}

export function problemWithUrl(v: string): string | undefined {
  const t = problemWithText(v);
  if (t) return t;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return `${JSON.stringify(v)} is not a URL (e.g. http://example.com/)`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `${JSON.stringify(v)} is not an http:// or https:// URL`;
  if (!u.hostname) return `${JSON.stringify(v)} has no host`;
  return undefined;
}

/** host[:port][/path]: what goes in front of an image name (no scheme, no tag). */
const REGISTRY = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:]+\])(?::\d{1,5})?(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/i;

export function problemWithRegistry(v: string): string | undefined {
  const t = problemWithText(v);
  if (t) return t;
  if (/^[a-z]+:\/\//i.test(v)) return `${JSON.stringify(v)} must be a registry host (e.g. mirror.example.com:5000/k8s), without a scheme`;
  if (!REGISTRY.test(v)) return `${JSON.stringify(v)} is not a registry host[:port][/path] (e.g. mirror.example.com:5000/k8s)`;
  return undefined;
}

export function problemWithReadableFile(path: string): string | undefined {
  const t = problemWithText(path);
  if (t) return t;
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    accessSync(path, constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? `${path} does not exist` : `${path} cannot be read (${code})`;
  }
  return undefined;
}

/** A duration with a unit, above zero: "20" meaning 20 ms, or 0 meaning "no deadline", are traps. */
export function problemWithDuration(v: string): string | undefined {
  const t = problemWithText(v);
  if (t) return t;
  const ms = parseDuration(v);
  if (ms === undefined) return `${JSON.stringify(v)} is not a duration with a unit (e.g. 30m, 90s, 1h30m)`;
  if (ms <= 0) return `${JSON.stringify(v)} must be longer than zero`;
  return undefined;
}

export function durationMs(what: string, v: string): number {
  const p = problemWithDuration(v);
  if (p) throw new UsageError(`${what} ${p}`);
  return parseDuration(v)!;
}

/**
 * The report directory can take the reports: checked (and created) before the run touches the
 * cluster. A file, a path under a file, a name longer than the file system allows, or a place
 * nothing can be written (/proc/x) is a problem named here, not a silent loss at the end.
 */
export function problemWithReportDir(dir: string): string | undefined {
  const t = problemWithText(dir);
  if (t) return t;
  const abs = resolve(dir);
  const long = abs.split(sep).find(part => Buffer.byteLength(part) > MAX_NAME_BYTES);
  if (long) return `${dir} has a name of ${Buffer.byteLength(long)} bytes (at most ${MAX_NAME_BYTES})`;
  const missing: string[] = [];
  let existing = abs;
  for (;;) {
    try {
      const st = statSync(existing);
      if (!st.isDirectory()) return existing === abs ? `${dir} is a file, not a directory` : `${dir} is under ${existing}, which is a file`;
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return `${dir} cannot be used (${code} on ${existing})`;
      if (dirname(existing) === existing) return `${dir} cannot be created`;
      missing.unshift(existing);
      existing = dirname(existing);
    }
  }
  const created: string[] = [];
  const probe = join(abs, `.wincheck-write-test-${process.pid}`);
  try {
    for (const d of missing) {
      mkdirSync(d);
      created.push(d);
    }
    writeFileSync(probe, '');
    unlinkSync(probe);
    return undefined;
  } catch (e) {
    for (const d of created.reverse())
      try {
        rmdirSync(d);
      } catch {
        /* leave what we cannot remove */
      }
    const code = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
    return `${dir} cannot be written (${code})`;
  }
}

type Problem = (v: string) => string | undefined;

/** --disruptive and --disruptive-node go together: one alone is a usage error naming the other. */
export function problemWithDisruptive(flags: Pick<RunFlags, 'disruptive' | 'disruptiveNode'>): string | undefined {
  if (flags.disruptive && !flags.disruptiveNode)
    return '--disruptive needs --disruptive-node NODE: the one Ready Windows node the disruptive checks may reboot, shut down and put under memory pressure';
  if (flags.disruptiveNode !== undefined && !flags.disruptive)
    return `--disruptive-node ${flags.disruptiveNode} is used only with --disruptive (disruptive checks never run by default)`;
  if (flags.disruptiveNode !== undefined) return problemWithText(flags.disruptiveNode) && `--disruptive-node ${problemWithText(flags.disruptiveNode)}`;
  return undefined;
}

/**
 * Every run input from flags (named --flag) or the config file (named "<file>: field"), checked
 * before anything starts. The report directory is checked last: it is created by the check.
 */
export function validateRunInputs(
  flags: RunFlags & { timeout?: string },
  file: FileConfig,
  fileName = 'config file',
  reportDir?: { dir: string; from: string },
): void {
  const check = (flag: string, field: string, flagValue: string | string[] | undefined, fileValue: string | string[] | undefined, problem: Problem) => {
    const [name, value] = flagValue !== undefined && (!Array.isArray(flagValue) || flagValue.length) ? [flag, flagValue] : [`${fileName}: ${field}`, fileValue];
    for (const v of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      const p = problem(v);
      if (p) throw new UsageError(`${name} ${p}`);
    }
  };
  check('--kubeconfig', 'kubeconfig', flags.kubeconfig, file.kubeconfig, problemWithText);
  check('--context', 'context', flags.context, file.context, problemWithText);
  check('--suite', 'suites', flags.suite, file.suites, problemWithText);
  check('--feature', 'features', flags.feature, file.features, problemWithText);
  check('--skip', 'skip', flags.skip, file.skip, problemWithText);
  check('--egress-url', 'egressUrl', flags.egressUrl, file.egressUrl, problemWithUrl);
  check('--image-registry', 'imageRegistry', flags.imageRegistry, file.imageRegistry, problemWithRegistry);
  const disruptive = problemWithDisruptive(flags);
  if (disruptive) throw new UsageError(disruptive);
  check('--ssh-user', 'ssh.user', flags.sshUser, file.ssh?.user, problemWithText);
  check('--ssh-key', 'ssh.key', flags.sshKey, file.ssh?.key, problemWithReadableFile);
  check('--ssh-known-hosts', 'ssh.knownHosts', flags.sshKnownHosts, file.ssh?.knownHosts, problemWithReadableFile);
  if (reportDir) {
    const p = problemWithReportDir(reportDir.dir);
    if (p) throw new UsageError(`${reportDir.from} ${p}`);
  }
}
