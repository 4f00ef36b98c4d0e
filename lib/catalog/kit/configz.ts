// The kubelet's running configuration, /configz through the API server's node proxy
// ({"kubeletconfig": {...}}): what res.allocatable-configz and node.graceful-shutdown read.
// A refusal or an answer without the object is the harness's means failing (MeansError / Error).

import { MeansError, refusalMeans } from '../../cluster/meansError.ts';
import { rawGet, type RawGetClient } from '../../cluster/rawGet.ts';

export function configzPath(node: string): string {
  return `/api/v1/nodes/${encodeURIComponent(node)}/proxy/configz`;
}

/** The node's kubeletconfig object, typed as the part the caller reads. */
export async function readKubeletConfigz<T extends object>(kube: RawGetClient, node: string): Promise<T> {
  const path = configzPath(node);
  const r = await rawGet(kube, path, { requestTimeoutMs: 30_000 });
  if (r.status !== 200) {
    const means = refusalMeans(r.status, r.body);
    throw new MeansError(means ?? 'kubelet', `GET ${path}: HTTP ${r.status}: ${r.body.slice(0, 200)}`);
  }
  let config: T | undefined;
  try {
    config = (JSON.parse(r.body) as { kubeletconfig?: T }).kubeletconfig;
  } catch {
    config = undefined;
  }
  if (!config || typeof config !== 'object') throw new Error(`GET ${path}: no {"kubeletconfig": ...} object in the answer: ${r.body.slice(0, 200)}`);
  return config;
}
