// The one retry-and-deadline policy for every API call the harness makes. Real API servers
// throttle (429 + Retry-After), restart (connection resets, 5xx) and stall: every request gets a
// per-attempt deadline and honours the run's abort signal; what is safe to retry is retried
// with capped backoff. Creates that come back 409 after a retry are resolved by create.ts.

import {
  createConfiguration,
  IsomorphicFetchHttpLibrary,
  ResponseContext,
  ServerConfiguration,
  wrapHttpLibrary,
  type Configuration,
  type HttpLibrary,
  type KubeConfig,
  type RequestContext,
} from '@kubernetes/client-node';

export * from './retry.ts';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from './retry.ts';
import { CredentialedKubeConfig, multiValuedHeaders } from './credentials.ts';

/** The generated clients' HTTP layer with the policy: deadlines, abort, retries. */
export class ResilientHttpLibrary implements HttpLibrary {
  private readonly _inner = wrapHttpLibrary({ send: (r: RequestContext) => this._send(r) });
  private readonly _fetch = new IsomorphicFetchHttpLibrary();
  constructor(
    private readonly _policy: RetryPolicy,
    private readonly _signal?: AbortSignal,
    /** Whose credentials: after a 401 they are fetched anew and the request sent once more. */
    private readonly _kc?: KubeConfig,
  ) {}

  send(request: RequestContext) {
    return this._inner.send(request);
  }

  private _send(request: RequestContext): Promise<ResponseContext> {
    const method = request.getHttpMethod().toString();
    const url = new URL(request.getUrl());
    const what = `${method} ${url.pathname}`;
    // Every verb the harness uses is safe to repeat: reads are, deletes end in 404 (callers take
    // it as gone), and a repeated create ends in 409, which create.ts resolves by reading back.
    // The body is read inside the attempt, under its own deadline (a reset mid-body is retried
    // like any other), and handed on already read.
    let renewed = false;
    return withRetries(what, this._policy, this._signal, true, async (signal, answered) => {
      request.setSignal(signal);
      let res = await this._fetchOnce(request);
      // A 401 with a credential that can be had anew (exec plugin, tokenFile): once more with it,
      // as client-go's exec authenticator does on a 401.
      if (res.httpStatusCode === 401 && !renewed && this._kc instanceof CredentialedKubeConfig && this._kc.credentialRefused()) {
        renewed = true;
        await this._kc.applySecurityAuthentication(request);
        res = await this._fetchOnce(request);
      }
      answered();
      if (res.httpStatusCode === 401 && this._kc instanceof CredentialedKubeConfig) this._kc.refusedMidRun(what);
      const body = await res.body.binary();
      const read = new ResponseContext(res.httpStatusCode, res.headers, {
        text: () => Promise.resolve(body.toString('utf8')),
        binary: () => Promise.resolve(body),
      });
      return { status: res.httpStatusCode, retryAfter: res.headers['retry-after'], value: read };
    });
  }

  private _fetchOnce(request: RequestContext): Promise<ResponseContext> {
    // Impersonate-Group and -Extra-* may repeat; RequestContext holds one value a header, so
    // those requests go with their headers as a list of pairs (node-fetch takes either).
    const pairs = multiValuedHeaders(request);
    const sent = pairs
      ? (Object.create(request, { getHeaders: { value: () => [...Object.entries(request.getHeaders()), ...pairs] } }) as RequestContext)
      : request;
    return this._fetch.send(sent).toPromise();
  }
}

export interface ClientOptions {
  /** Ends every call in flight (the run's abort signal); teardown clients have none. */
  signal?: AbortSignal;
  policy?: Partial<RetryPolicy>;
}

export function policyOf(opts: ClientOptions = {}): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...opts.policy };
}

/** A generated-client configuration for kc's current cluster with the policy applied. */
export function resilientConfiguration(kc: KubeConfig, opts: ClientOptions = {}): Configuration {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  return createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    httpApi: new ResilientHttpLibrary(policyOf(opts), opts.signal, kc),
  });
}
