// Exec credential plugins (client.authentication.k8s.io v1 and v1beta1), as client-go runs them
// (https://github.com/kubernetes/client-go/blob/master/plugin/pkg/client/auth/exec/exec.go):
// the command with its args and env plus KUBERNETES_EXEC_INFO (the cluster's details when
// provideClusterInfo), stdin only when interactive and a terminal is there; the returned token
// is used until its expirationTimestamp (here: refreshed shortly before) or until a 401.

import { spawn } from 'node:child_process';
import type { ExecConfig, RawCluster } from './kubeconfigFiles.ts';
import { CredentialError, type CredentialSource } from './credentials.ts';

export const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

interface ExecCredential {
  apiVersion?: string;
  kind?: string;
  status?: { token?: string; clientCertificateData?: string; clientKeyData?: string; expirationTimestamp?: string };
}

/** Refresh this long before the plugin's expiry (a fifth of the lifetime for short-lived ones). */
const REFRESH_BEFORE_MS = 30_000;

export interface ExecSourceOptions {
  /** The cluster for provideClusterInfo, CA bytes already read. */
  cluster: RawCluster & { server: string; caData?: Buffer };
  /** Whether stdin is a terminal (CI has none). */
  stdinIsTTY?: boolean;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
}

export class ExecCredentialSource implements CredentialSource {
  readonly kind = 'exec plugin';
  readonly hint: string;
  private _cached?: { token: string; refreshAt: number };
  private _pending?: Promise<string>;
  /** Plugin runs so far (for tests and the report's detail). */
  runs = 0;

  constructor(
    readonly exec: ExecConfig,
    private readonly _o: ExecSourceOptions,
  ) {
    this.hint = `check that "${[exec.command, ...(exec.args ?? [])].join(' ')}" prints a current credential`;
  }

  async token(): Promise<string> {
    const now = (this._o.now ?? Date.now)();
    if (this._cached && now < this._cached.refreshAt) return this._cached.token;
    // One plugin run at a time: every request waiting for a token shares it.
    this._pending ??= this._run().finally(() => {
      this._pending = undefined;
    });
    return this._pending;
  }

  refused(): boolean {
    this._cached = undefined;
    return true;
  }

  private async _run(): Promise<string> {
    const out = await runPlugin(this.exec, this._o);
    this.runs++;
    const cred = parseCredential(out, this.exec);
    const now = (this._o.now ?? Date.now)();
    const exp = cred.status?.expirationTimestamp ? Date.parse(cred.status.expirationTimestamp) : NaN;
    const lifetime = exp - now;
    const refreshAt = Number.isNaN(exp) ? Infinity : exp - Math.min(REFRESH_BEFORE_MS, Math.max(0, lifetime) / 5);
    const token = cred.status!.token!;
    this._cached = { token, refreshAt };
    return token;
  }
}

function execLine(exec: ExecConfig): string {
  return `exec plugin "${exec.command}"`;
}

export function parseCredential(stdout: string, exec: ExecConfig): ExecCredential {
  let cred: ExecCredential;
  try {
    cred = JSON.parse(stdout) as ExecCredential;
  } catch {
    throw new CredentialError(`${execLine(exec)} printed something that is not an ExecCredential (not JSON)`);
  }
  if (cred.kind !== 'ExecCredential') throw new CredentialError(`${execLine(exec)} printed kind ${cred.kind ?? '(none)'}, not ExecCredential`);
  if (exec.apiVersion && cred.apiVersion !== exec.apiVersion)
    throw new CredentialError(`${execLine(exec)} is configured for ${exec.apiVersion} but returned ${cred.apiVersion ?? 'no apiVersion'}`);
  if (!cred.status?.token) {
    // Certificates from a plugin would need a new TLS identity per refresh; not supported.
    if (cred.status?.clientCertificateData)
      throw new CredentialError(`${execLine(exec)} returned a client certificate; wincheck takes tokens from exec plugins only`);
    throw new CredentialError(`${execLine(exec)} returned no token`);
  }
  if (cred.status.expirationTimestamp && Number.isNaN(Date.parse(cred.status.expirationTimestamp)))
    throw new CredentialError(`${execLine(exec)} returned an expirationTimestamp that is not a time: ${cred.status.expirationTimestamp}`);
  return cred;
}

/** KUBERNETES_EXEC_INFO: the ExecCredential the plugin is given (exec.go newExecCredential). */
export function execInfo(exec: ExecConfig, o: ExecSourceOptions, interactive: boolean): string {
  const c = o.cluster;
  const cluster = exec.provideClusterInfo
    ? {
        server: c.server,
        'tls-server-name': c['tls-server-name'],
        'insecure-skip-tls-verify': c['insecure-skip-tls-verify'],
        'certificate-authority-data': c.caData?.toString('base64'),
        'proxy-url': c['proxy-url'],
        'disable-compression': c['disable-compression'],
      }
    : undefined;
  return JSON.stringify({ apiVersion: exec.apiVersion, kind: 'ExecCredential', spec: { interactive, ...(cluster ? { cluster } : {}) } });
}

function runPlugin(exec: ExecConfig, o: ExecSourceOptions): Promise<string> {
  const mode = exec.interactiveMode ?? 'IfAvailable';
  const tty = o.stdinIsTTY ?? process.stdin.isTTY === true;
  if (mode === 'Always' && !tty)
    return Promise.reject(new CredentialError(`${execLine(exec)} needs a terminal (interactiveMode: Always) and standard input is not one`));
  const interactive = mode !== 'Never' && tty;
  const env: NodeJS.ProcessEnv = { ...(o.env ?? process.env) };
  for (const e of exec.env ?? []) env[e.name] = e.value;
  env.KUBERNETES_EXEC_INFO = execInfo(exec, o, interactive);
  return new Promise((resolve, reject) => {
    const child = spawn(exec.command, exec.args ?? [], { env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') {
        const hint = exec.installHint?.replace(/\s+/g, ' ').trim();
        reject(new CredentialError(`${execLine(exec)} was not found${exec.command.includes('/') ? '' : ' on PATH'}${hint ? `; ${hint}` : ''}`));
      } else reject(new CredentialError(`${execLine(exec)} could not start: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(stdout);
      const said = stderr.replace(/\s+/g, ' ').trim().slice(0, 400);
      reject(new CredentialError(`${execLine(exec)} failed (${signal ? `signal ${signal}` : `exit ${code}`})${said ? `: ${said}` : ''}`));
    });
  });
}
