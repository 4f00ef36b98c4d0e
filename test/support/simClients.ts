// An in-process sim (default profile, or the one given) with the harness's clients and one namespace made for the
// test: for tests of the harness's waits against a real API.

import { KubeConfig } from '@kubernetes/client-node';
import { makeClients } from '../../lib/cluster/client.ts';
import type { KubeClients } from '../../lib/cluster/types.ts';
import { startSim, type Profile } from '../../sim/index.ts';

export async function simClients(namespace: string, profile?: Profile): Promise<{ kube: KubeClients; stop(): Promise<void> }> {
  const s = await startSim({ profile });
  const kc = new KubeConfig();
  kc.loadFromString(s.kubeconfig);
  const kube = makeClients(kc);
  await kube.core.createNamespace({ body: { metadata: { name: namespace } } });
  return { kube, stop: () => s.stop() };
}
