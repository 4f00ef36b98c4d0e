// Is the API server there and answering? One GET /version with a short deadline; any failure is
// exit 3 with one line naming the server.

import type { KubeConfig } from '@kubernetes/client-node';
import { ClusterUnreachableError } from '../errors.ts';
import type { ServerVersion } from '../facts/kubernetes.ts';
import { rawGet } from './rawGet.ts';
import { credentialErrorIn } from './credentials.ts';
import { refusedCredentials } from './refusal.ts';

export async function preflight(kc: KubeConfig, timeoutMs: number): Promise<ServerVersion> {
  const server = kc.getCurrentCluster()?.server ?? '(no server)';
  let res;
  try {
    // One attempt: an unreachable server is reported within seconds, not after retries.
    res = await rawGet({ kc }, '/version', { attempts: 1, requestTimeoutMs: timeoutMs });
  } catch (e) {
    // The credential could not be had (a failing or missing exec plugin, an unreadable tokenFile).
    const refused = credentialErrorIn(e);
    if (refused) throw new ClusterUnreachableError(`${refused.message} (context ${kc.getCurrentContext()})`);
    const code = (e as NodeJS.ErrnoException).code;
    const text = e instanceof Error ? e.message : String(e);
    throw new ClusterUnreachableError(
      `cluster ${server} is unreachable: ${code && !text.includes(code) ? `${code} ` : ''}${text}; check the kubeconfig's server and that the cluster is up`,
    );
  }
  if (res.status === 401) throw refusedCredentials(kc);
  if (res.status === 403) throw new ClusterUnreachableError(`cluster ${server} refused the credentials (HTTP ${res.status}); check the kubeconfig's user`);
  if (res.status !== 200) throw new ClusterUnreachableError(`cluster ${server} answered GET /version with HTTP ${res.status}`);
  return parseVersion(res.body, server);
}

export function parseVersion(body: string, server = ''): ServerVersion {
  let v: { gitVersion?: string; major?: string; minor?: string };
  try {
    v = JSON.parse(body);
  } catch {
    throw new ClusterUnreachableError(`cluster ${server} answered GET /version with something that is not JSON`);
  }
  const m = /^v?(\d+)\.(\d+)/.exec(v.gitVersion ?? '');
  const major = Number(v.major ?? m?.[1]);
  const minor = parseInt(v.minor ?? m?.[2] ?? '', 10);
  if (!v.gitVersion || Number.isNaN(major) || Number.isNaN(minor))
    throw new ClusterUnreachableError(`cluster ${server} answered GET /version without a version`);
  return { gitVersion: v.gitVersion, major, minor };
}
