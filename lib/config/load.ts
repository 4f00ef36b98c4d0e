// Loads and validates the YAML config file by hand, so every error names the file and the
// field path: "wincheck.yaml: probes.timeoutMs must be a non-negative number".

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'yaml';
import { defaultTimeouts } from '../cluster/timeouts.ts';
import { UsageError } from '../errors.ts';
import { parseDuration } from '../../util/duration.ts';
import { problemWithDuration } from './validate.ts';
import type { FileConfig } from './types.ts';

export function loadConfigFile(file: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`config file ${file} does not exist or cannot be read`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    throw new UsageError(`${basename(file)}: not valid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  return validateConfig(data ?? {}, basename(file));
}

type Check = (v: unknown, path: string) => unknown;

const str: Check = (v, p) => {
  if (typeof v !== 'string' || !v) throw `${p} must be a non-empty string`;
  return v;
};
const bool: Check = (v, p) => {
  if (typeof v !== 'boolean') throw `${p} must be true or false`;
  return v;
};
const nonNegative: Check = (v, p) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw `${p} must be a non-negative number`;
  return v;
};
const positiveInt: Check = (v, p) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw `${p} must be a positive integer`;
  return v;
};
const strList: Check = (v, p) => {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) throw `${p} must be a list of strings`;
  v.forEach((x, i) => str(x, `${p}[${i}]`));
  return v;
};
const duration: Check = (v, p) => {
  if (typeof v !== 'string') throw `${p} must be a duration with a unit, like "30m" or "90s"`;
  const problem = problemWithDuration(v);
  if (problem) throw `${p} ${problem}`;
  return parseDuration(v);
};
const object =
  (fields: Record<string, Check>): Check =>
  (v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw `${p || 'the file'} must be a mapping`;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const path = p ? `${p}.${k}` : k;
      const check = fields[k];
      if (!check) throw `${path} is not a known field (known: ${Object.keys(fields).join(', ')})`;
      if (x !== null && x !== undefined) out[k] = check(x, path);
    }
    return out;
  };

const SCHEMA = object({
  kubeconfig: str,
  context: str,
  suites: strList,
  features: strList,
  skip: strList,
  reportDir: str,
  timeout: duration,
  keep: bool,
  strict: bool,
  skipUnpermitted: bool,
  parallel: positiveInt,
  imageRegistry: str,
  egressUrl: str,
  nodes: strList,
  includeCordoned: bool,
  ssh: object({ user: str, key: str, knownHosts: str }),
  nodeAccess: (v, p) => {
    if (v !== 'auto' && v !== 'hostprocess' && v !== 'ssh') throw `${p} must be one of auto, hostprocess, ssh`;
    return v;
  },
  loadBalancer: bool,
  probes: object({ timeoutMs: nonNegative }),
  timeouts: object(Object.fromEntries(Object.keys(defaultTimeouts()).map(k => [k, nonNegative]))),
  prepull: bool,
  diagnostics: bool,
});

export function validateConfig(data: unknown, fileName: string): FileConfig {
  try {
    const v = SCHEMA(data, '') as FileConfig & { timeout?: number };
    const { timeout, ...rest } = v;
    return { ...rest, ...(timeout !== undefined ? { timeoutMs: timeout } : {}) };
  } catch (e) {
    if (typeof e === 'string') throw new UsageError(`${fileName}: ${e}`);
    throw e;
  }
}
