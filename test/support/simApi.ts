// A running API server on a bare Store: a few namespaces and two nodes (Linux and
// Windows) inserted directly, no controllers, no runtime. Shared by the sim-api tests.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { Store, type KubeObject } from '../../sim/api/store.ts';
import { RESOURCES, bucketOf } from '../../sim/api/resources.ts';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../sim/api/server.ts';
import type { Profile } from '../../sim/profiles/types.ts';

export const PROFILE: Profile = {
  name: 'sim-api-test',
  kubernetesVersion: 'v1.33.1',
  nodes: [
    { name: 'linux-1', os: 'linux', role: 'control-plane' },
    { name: 'win-1', os: 'windows', windowsBuild: '10.0.20348.2582' },
  ],
  network: { mode: 'l2bridge', cni: 'flannel' },
  addons: { metricsServer: true },
};

export function node(name: string, os: 'linux' | 'windows', ip: string): KubeObject {
  const win = os === 'windows';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/os': os,
        'beta.kubernetes.io/os': os,
        'kubernetes.io/hostname': name,
        'kubernetes.io/arch': 'amd64',
        ...(win ? { 'node.kubernetes.io/windows-build': '10.0.20348' } : { 'node-role.kubernetes.io/control-plane': '' }),
      },
    },
    spec: win ? { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] } : {},
    status: {
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.33.1',
        kubeProxyVersion: 'v1.33.1',
        operatingSystem: os,
        architecture: 'amd64',
        osImage: win ? 'Windows Server 2022 Datacenter' : 'Ubuntu 22.04.4 LTS',
        kernelVersion: win ? '10.0.20348.2582' : '5.15.0-105-generic',
        containerRuntimeVersion: 'containerd://1.7.20',
        machineID: name,
        systemUUID: name,
        bootID: name,
      },
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '15Gi', pods: '110' },
    },
  };
}

export interface Env {
  store: Store;
  api: ApiServer;
  kc: k8s.KubeConfig;
  dir: string;
  kubeconfigPath: string;
  certKubeconfigPath: string;
  stop(): Promise<void>;
}

export async function startEnv(extra: Partial<ApiServerOptions> = {}): Promise<Env> {
  const store = new Store();
  for (const r of RESOURCES) if (r.namespaced) store.registerNamespaced(bucketOf(r));
  for (const ns of ['default', 'kube-system', 'test'])
    store.create('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  store.create('nodes', node('linux-1', 'linux', '127.0.1.1'));
  store.create('nodes', node('win-1', 'windows', '127.0.1.2'));
  const api = await startApiServer({ store, profile: PROFILE, bookmarkIntervalMs: 300, ...extra });
  const dir = mkdtempSync(join(tmpdir(), 'sim-api-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const certKubeconfigPath = join(dir, 'kubeconfig-cert');
  writeFileSync(kubeconfigPath, api.kubeconfig(), { mode: 0o600 });
  writeFileSync(certKubeconfigPath, api.kubeconfig({ auth: 'cert' }), { mode: 0o600 });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(api.kubeconfig());
  return {
    store,
    api,
    kc,
    dir,
    kubeconfigPath,
    certKubeconfigPath,
    async stop() {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The kubectl binaries of the machine: version → path ("1.27" … "1.33"). */
export function kubectlBinaries(): Map<string, string> {
  const out = new Map<string, string>();
  const which = (process.env.PATH ?? '')
    .split(':')
    .map(d => join(d, 'kubectl'))
    .find(p => existsSync(p));
  if (!which) return out;
  let dir: string;
  try {
    dir = dirname(realpathSync(which));
  } catch {
    dir = dirname(readlinkSync(which));
  }
  for (let m = 27; m <= 40; m++) {
    const p = join(dir, `kubectl.1.${m}`);
    if (existsSync(p)) out.set(`1.${m}`, p);
  }
  return out;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectl(bin: string, kubeconfig: string, args: string[], input?: string, timeoutMs = 60_000): Promise<RunResult> {
  return new Promise(resolve => {
    const child = execFile(
      bin,
      ['--kubeconfig', kubeconfig, ...args],
      { timeout: timeoutMs, env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dirname(kubeconfig) } },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) {
      child.stdin?.end(input);
    }
  });
}

/** Spawns a long-running kubectl (get -w) and resolves once its stdout satisfies `until` (or rejects at the deadline). */
export function kubectlUntil(
  bin: string,
  kubeconfig: string,
  args: string[],
  until: (out: string) => boolean,
  deadlineMs = 20_000,
): { child: ChildProcess; done: Promise<string> } {
  const child = spawn(bin, ['--kubeconfig', kubeconfig, ...args], { env: { ...process.env, HOME: dirname(kubeconfig) } });
  let out = '',
    err = '';
  const done = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`kubectl ${args.join(' ')}: deadline; stdout=${out} stderr=${err}`));
    }, deadlineMs);
    child.stdout.on('data', d => {
      out += d;
      if (until(out)) {
        clearTimeout(timer);
        child.kill();
        resolve(out);
      }
    });
    child.stderr.on('data', d => {
      err += d;
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (until(out)) resolve(out);
      else reject(new Error(`kubectl ${args.join(' ')} exited; stdout=${out} stderr=${err}`));
    });
  });
  return { child, done };
}

/** Resolves when `check` returns a value, polling store events rather than sleeping. */
export function waitFor<T>(fn: () => T | undefined, deadlineMs = 10_000, store?: Store): Promise<T> {
  return new Promise((resolve, reject) => {
    const first = fn();
    if (first !== undefined) {
      resolve(first);
      return;
    }
    const timer = setTimeout(() => {
      sub?.stop();
      clearInterval(iv);
      reject(new Error('waitFor: deadline'));
    }, deadlineMs);
    const tryIt = () => {
      const v = fn();
      if (v !== undefined) {
        clearTimeout(timer);
        sub?.stop();
        clearInterval(iv);
        resolve(v);
      }
    };
    const sub = store?.onAny(() => tryIt());
    const iv = setInterval(tryIt, 50);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** A plain HTTPS request to the server (for Status bodies, headers and unauthenticated calls). */
export async function raw(
  env: Env,
  method: string,
  path: string,
  o: { body?: unknown; contentType?: string; accept?: string; auth?: boolean; token?: string } = {},
): Promise<RawResponse> {
  const https = await import('node:https');
  const u = new URL(path, env.api.url);
  return new Promise((resolve, reject) => {
    const data = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const headers: Record<string, string> = {};
    if (o.auth !== false) headers.Authorization = `Bearer ${o.token ?? env.api.token}`;
    if (data !== undefined) {
      headers['Content-Type'] = o.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(data));
    }
    if (o.accept) headers.Accept = o.accept;
    const req = https.request(u, { method, headers, ca: env.api.caPem }, res => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', d => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** Opens a watch over plain HTTPS and collects newline-delimited events until `until` holds. */
export async function rawWatch(
  env: Env,
  path: string,
  until: (events: { type: string; object: Record<string, any> }[]) => boolean,
  deadlineMs = 10_000,
  accept?: string,
): Promise<{ events: { type: string; object: Record<string, any> }[]; ended: boolean }> {
  const https = await import('node:https');
  const u = new URL(path, env.api.url);
  return new Promise((resolve, reject) => {
    const events: { type: string; object: Record<string, any> }[] = [];
    let buf = '';
    let settled = false;
    const finish = (ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ events, ended });
    };
    const timer = setTimeout(() => {
      settled = true;
      req.destroy();
      reject(new Error(`rawWatch deadline; got ${JSON.stringify(events).slice(0, 2000)}`));
    }, deadlineMs);
    const req = https.request(u, { headers: { Authorization: `Bearer ${env.api.token}`, ...(accept ? { Accept: accept } : {}) }, ca: env.api.caPem }, res => {
      res.setEncoding('utf8');
      res.on('data', d => {
        buf += d;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) events.push(JSON.parse(line));
        }
        if (until(events)) finish(false);
      });
      res.on('end', () => finish(true));
    });
    req.on('error', e => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(e);
      }
    });
    req.end();
  });
}
