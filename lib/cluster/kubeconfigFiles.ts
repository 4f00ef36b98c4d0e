// Reading kubeconfig files as client-go's loading rules do
// (https://github.com/kubernetes/client-go/blob/master/tools/clientcmd/loader.go):
// every file of KUBECONFIG is read, missing ones skipped; the first file to set a cluster, user
// or context by name wins it whole, and the first to set current-context wins that; every file
// path an entry names is resolved against the folder of the file the entry came from.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { parse } from 'yaml';

export interface ExecEnvVar {
  name: string;
  value: string;
}

/** users[].user.exec (client.authentication.k8s.io ExecConfig). */
export interface ExecConfig {
  apiVersion?: string;
  command: string;
  args?: string[];
  env?: ExecEnvVar[] | null;
  installHint?: string;
  provideClusterInfo?: boolean;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

export interface RawCluster {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
  'proxy-url'?: string;
  'disable-compression'?: boolean;
  extensions?: unknown;
}

export interface RawUser {
  token?: string;
  tokenFile?: string;
  username?: string;
  password?: string;
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  exec?: ExecConfig;
  'auth-provider'?: { name: string; config?: Record<string, string> };
  as?: string;
  'as-uid'?: string;
  'as-groups'?: string[];
  'as-user-extra'?: Record<string, string[]>;
}

export interface RawContext {
  cluster?: string;
  user?: string;
  namespace?: string;
}

/** An entry with the file it came from (client-go's LocationOfOrigin). */
export interface FromFile<T> {
  value: T;
  file: string;
}

export interface MergedKubeconfig {
  files: string[];
  clusters: Map<string, FromFile<RawCluster>>;
  users: Map<string, FromFile<RawUser>>;
  contexts: Map<string, FromFile<RawContext>>;
  currentContext?: string;
}

interface RawFile {
  clusters?: { name?: string; cluster?: RawCluster }[] | null;
  users?: { name?: string; user?: RawUser }[] | null;
  contexts?: { name?: string; context?: RawContext }[] | null;
  'current-context'?: string;
}

export class KubeconfigFileError extends Error {}

/** One file, parsed, its paths made absolute. Throws KubeconfigFileError naming the file. */
export function readKubeconfigFile(file: string): RawFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new KubeconfigFileError(`kubeconfig file ${file} could not be read: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new KubeconfigFileError(`kubeconfig file ${file} is not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  // An empty file is an empty config, as client-go reads it.
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new KubeconfigFileError(`kubeconfig file ${file} is not a kubeconfig (no mapping at the top)`);
  const raw = doc as RawFile;
  const base = dirname(resolve(file));
  for (const c of raw.clusters ?? []) if (c?.cluster) resolveClusterPaths(c.cluster, base);
  for (const u of raw.users ?? []) if (u?.user) resolveUserPaths(u.user, base);
  return raw;
}

/** The files in order of precedence, merged (client-go's Load). */
export function mergeKubeconfigFiles(files: string[]): MergedKubeconfig {
  const merged: MergedKubeconfig = { files, clusters: new Map(), users: new Map(), contexts: new Map() };
  for (const file of files) {
    const raw = readKubeconfigFile(file);
    for (const c of raw.clusters ?? []) if (c?.name && !merged.clusters.has(c.name)) merged.clusters.set(c.name, { value: c.cluster ?? {}, file });
    for (const u of raw.users ?? []) if (u?.name && !merged.users.has(u.name)) merged.users.set(u.name, { value: u.user ?? {}, file });
    for (const x of raw.contexts ?? []) if (x?.name && !merged.contexts.has(x.name)) merged.contexts.set(x.name, { value: x.context ?? {}, file });
    if (!merged.currentContext && raw['current-context']) merged.currentContext = raw['current-context'];
  }
  return merged;
}

// client-go's ResolvePaths: only non-empty relative paths change.
function resolveIn<T extends object>(o: T, keys: (keyof T)[], base: string): void {
  for (const k of keys) {
    const p = o[k];
    if (typeof p === 'string' && p && !isAbsolute(p)) (o[k] as string) = join(base, p);
  }
}

function resolveClusterPaths(c: RawCluster, base: string): void {
  resolveIn(c, ['certificate-authority'], base);
}

function resolveUserPaths(u: RawUser, base: string): void {
  resolveIn(u, ['client-certificate', 'client-key', 'tokenFile'], base);
  // GetAuthInfoFileReferences: an exec command is a path only when it contains a separator;
  // otherwise it is looked up on PATH.
  if (u.exec?.command?.includes(sep)) resolveIn(u.exec, ['command'], base);
}
