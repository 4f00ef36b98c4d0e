// What the kubeconfig's user sends, on every request: a bearer token (inline, from a tokenFile
// re-read as client-go's cachingTokenSource does, or from an exec plugin), a client certificate,
// basic auth, or nothing; plus the impersonation headers. @kubernetes/client-node reads the
// certificate, CA and oidc auth-provider itself; the token sources and impersonation are ours
// (client-node reads no tokenFile, caches exec credentials past a 401 and sends only Impersonate-User).

import { readFileSync } from 'node:fs';
import { KubeConfig, type RequestContext, type User } from '@kubernetes/client-node';
import { impersonationHeaders, type Impersonation } from './impersonation.ts';
import { trustForProxy } from './proxyTrust.ts';

import type { CredentialKind } from './credentialInfo.ts';

/** A credential that cannot be had (a failing exec plugin, an unreadable tokenFile): exit 3 at preflight, one line. */
export class CredentialError extends Error {}

/** The CredentialError behind e (the retry layer wraps what a request throws), if any. */
export function credentialErrorIn(e: unknown): CredentialError | undefined {
  for (let c = e, n = 0; c && n < 5; c = (c as { cause?: unknown }).cause, n++) if (c instanceof CredentialError) return c;
  return undefined;
}

export interface CredentialSource {
  readonly kind: CredentialKind;
  /** What to check when the server refuses it (for the one line of a 401). */
  readonly hint: string;
  /** The bearer token to send now; undefined when this credential is no token. */
  token(): Promise<string | undefined>;
  /** The server answered 401: forget what token() gave. True when asking again can give another one. */
  refused(): boolean;
}

export interface UserAuth {
  /** The kubeconfig's user name and context, for messages. */
  userName: string;
  source: CredentialSource;
  impersonation?: Impersonation;
  /** Told of a 401 that a fresh credential did not cure (the run ends as error on it). */
  onRefused?: (what: string) => void;
}

// By the User object: copies of a KubeConfig (agent.ts) share the same user objects, so they
// share one exec plugin cache and one tokenFile reader.
const authByUser = new WeakMap<User, UserAuth>();

export function attachAuth(user: User, auth: UserAuth): void {
  authByUser.set(user, auth);
}

export function authOf(kc: KubeConfig): UserAuth | undefined {
  const u = kc.getCurrentUser();
  return u ? authByUser.get(u) : undefined;
}

/** Headers with several values (Impersonate-Group, Impersonate-Extra-*) that RequestContext cannot hold. */
const multiValued = new WeakMap<RequestContext, [string, string][]>();
export function multiValuedHeaders(request: RequestContext): [string, string][] | undefined {
  return multiValued.get(request);
}

/** A KubeConfig whose requests carry our token sources and impersonation headers. */
export class CredentialedKubeConfig extends KubeConfig {
  override async applyToHTTPSOptions(opts: Parameters<KubeConfig['applyToHTTPSOptions']>[0]): Promise<void> {
    await super.applyToHTTPSOptions(opts);
    const extra = await this.credentialHeaders();
    const o = opts as { headers?: Record<string, string | string[] | number | undefined>; agent?: unknown };
    if (o.agent) o.agent = trustForProxy(o.agent, this.getCurrentCluster()?.proxyUrl);
    o.headers = { ...o.headers, ...extra };
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const agent = context.getAgent();
    if (agent) trustForProxy(agent, this.getCurrentCluster()?.proxyUrl);
    const pairs: [string, string][] = [];
    for (const [k, v] of Object.entries(await this.credentialHeaders())) {
      if (Array.isArray(v)) {
        if (v.length === 1) context.setHeaderParam(k, v[0]);
        else for (const one of v) pairs.push([k, one]);
      } else context.setHeaderParam(k, v);
    }
    if (pairs.length) multiValued.set(context, pairs);
  }

  /** Authorization (our token sources) and the Impersonate-* headers for the current user. */
  async credentialHeaders(): Promise<Record<string, string | string[]>> {
    const auth = authOf(this);
    if (!auth) return {};
    const token = await auth.source.token();
    return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...impersonationHeaders(auth.impersonation) };
  }

  /** After a 401: whether a fresh credential may be had (the caller then retries once). */
  credentialRefused(): boolean {
    return authOf(this)?.source.refused() ?? false;
  }

  /** A request was refused (401) even with a fresh credential. */
  refusedMidRun(what: string): void {
    authOf(this)?.onRefused?.(what);
  }
}

export class StaticSource implements CredentialSource {
  constructor(
    readonly kind: 'token' | 'certificate' | 'basic auth' | 'auth-provider oidc' | 'none',
    readonly hint: string,
  ) {}
  async token(): Promise<undefined> {
    return undefined;
  }
  refused(): boolean {
    return false;
  }
}

// client-go transport/token_source.go: NewCachedFileTokenSource re-reads the file once the
// cached token is a minute old, and keeps the last good token when a read fails.
const TOKEN_FILE_TTL_MS = 60_000;

export class TokenFileSource implements CredentialSource {
  readonly kind = 'tokenFile';
  readonly hint: string;
  private _cached?: { token: string; at: number };

  constructor(
    readonly file: string,
    private readonly _now: () => number = Date.now,
  ) {
    this.hint = `check the token in ${file} is current`;
  }

  async token(): Promise<string> {
    if (this._cached && this._now() - this._cached.at < TOKEN_FILE_TTL_MS) return this._cached.token;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if (this._cached) return this._cached.token;
      throw new CredentialError(`the tokenFile ${this.file} could not be read: ${(e as Error).message}`);
    }
    const token = text.trim();
    if (!token && this._cached) return this._cached.token;
    if (!token) throw new CredentialError(`the tokenFile ${this.file} is empty`);
    this._cached = { token, at: this._now() };
    return token;
  }

  refused(): boolean {
    const had = this._cached !== undefined;
    this._cached = undefined;
    return had;
  }
}
