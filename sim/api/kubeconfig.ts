// The kubeconfig file a client needs to reach the simulated API server.

import { stringify } from 'yaml';

export interface KubeconfigInput {
  server: string;
  caPem: string;
  token?: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  context?: string;
  auth?: 'token' | 'cert';
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function buildKubeconfig(k: KubeconfigInput): string {
  const ctx = k.context ?? 'wincheck-sim';
  const user: Record<string, string> =
    k.auth === 'cert' ? { 'client-certificate-data': b64(k.clientCertPem ?? ''), 'client-key-data': b64(k.clientKeyPem ?? '') } : { token: k.token ?? '' };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: ctx, cluster: { server: k.server, 'certificate-authority-data': b64(k.caPem) } }],
    users: [{ name: `${ctx}-admin`, user }],
    contexts: [{ name: ctx, context: { cluster: ctx, user: `${ctx}-admin` } }],
    'current-context': ctx,
    preferences: {},
  });
}
