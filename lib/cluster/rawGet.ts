// A plain GET with the kubeconfig's credentials (paths the generated clients do not cover: the
// kubelet's stats through the node proxy, metrics.k8s.io, /version), under the one retry policy
// of every API call (retry.ts): a per-attempt deadline, the run's abort, retries of what a
// throttled or restarting server answers.

import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { CredentialedKubeConfig } from './credentials.ts';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from './retry.ts';

export interface RawResponse {
  status: number;
  body: string;
}

/** Where to send it and how: KubeClients fit (their policy and the run's signal). */
export interface RawGetClient {
  kc: KubeConfig;
  policy?: RetryPolicy;
  signal?: AbortSignal;
}

/** GET path; `override` changes the client's policy for this call (a longer deadline, a single attempt). */
export async function rawGet(client: RawGetClient, path: string, override: Partial<RetryPolicy> = {}): Promise<RawResponse> {
  const { kc } = client;
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the kubeconfig has no current cluster');
  // Appended, not resolved: a server behind a path prefix (https://host/k8s/clusters/c-x) keeps it.
  const url = new URL(server.replace(/\/+$/, '') + path);
  const lib = url.protocol === 'http:' ? http : https;
  const policy = { ...(client.policy ?? DEFAULT_RETRY_POLICY), ...override };
  const what = `GET ${url.pathname}`;
  let renewed = false;
  return withRetries(what, policy, client.signal, true, async (signal, answered) => {
    let res = await getOnce(kc, lib, url, signal, answered);
    // A 401 with a credential that can be had anew: once more with it (resilience.ts does the same).
    if (res.status === 401 && !renewed && kc instanceof CredentialedKubeConfig && kc.credentialRefused()) {
      renewed = true;
      res = await getOnce(kc, lib, url, signal, answered);
    }
    if (res.status === 401 && kc instanceof CredentialedKubeConfig) kc.refusedMidRun(what);
    return res;
  });
}

async function getOnce(kc: KubeConfig, lib: typeof http | typeof https, url: URL, signal: AbortSignal, answered: () => void) {
  const opts: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
  await kc.applyToHTTPSOptions(opts);
  return new Promise<{ status: number; retryAfter: string | undefined; value: RawResponse }>((resolve, reject) => {
    const req = lib.request(url, { ...opts, signal }, res => {
      answered();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], value: { status: res.statusCode ?? 0, body } }));
      res.on('error', reject);
      res.on('aborted', () => reject(Object.assign(new Error('the connection was reset mid-answer'), { code: 'ECONNRESET' })));
    });
    req.on('error', reject);
    req.end();
  });
}
