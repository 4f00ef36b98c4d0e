// API requests per run, from the API server's own counter: GET /metrics, summing
// apiserver_request_total over every verb and code (kube-apiserver serves the same metric, so
// this also works against a real cluster whose credentials may read /metrics).

import type { KubeConfig } from '@kubernetes/client-node';
import { rawGet } from '../lib/cluster/rawGet.ts';

/** The sum of every apiserver_request_total sample in a Prometheus text exposition. */
export function sumRequestTotal(metrics: string): number {
  let sum = 0;
  for (const line of metrics.split('\n')) {
    const m = /^apiserver_request_total(?:\{[^}]*\})?\s+([0-9.eE+-]+)/.exec(line);
    if (m) sum += Number(m[1]);
  }
  return sum;
}

export async function apiRequestTotal(kc: KubeConfig): Promise<number> {
  const r = await rawGet({ kc }, '/metrics');
  if (r.status !== 200) throw new Error(`GET /metrics: HTTP ${r.status}: ${r.body.slice(0, 200)}`);
  return sumRequestTotal(r.body);
}
