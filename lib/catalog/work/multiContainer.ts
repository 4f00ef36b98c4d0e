// Pods of more than one container on Windows: the containers share the pod's network (localhost).

import { supported } from '../expect.ts';
import { probeUntilPass } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';
import { cite, sources } from '../../facts/sources.ts';

async function multiContainerProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'multi-container';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  ctx.step('GET http://localhost:8080/hostname from container client (server listens in container server)');
  const res = await probeUntilPass(ctx, ctx.podTransport(name, 'windows', 'client'), { kind: 'http-get', url: 'http://localhost:8080/hostname' });
  return {
    works: res.ok,
    summary: res.ok
      ? 'container client reached container server on localhost:8080'
      : `container client could not reach container server on localhost:8080: ${res.detail}`,
    evidence: [res.evidence],
    node,
  };
}

export const features: Feature[] = [
  {
    id: 'work.multi-container',
    area: 'workloads',
    title: 'Two containers of one Windows pod share the network namespace (localhost)',
    needs: ['windows-node'],
    fixtures: [{ id: 'multi-container', template: 'multi-container', os: 'windows' }],
    expect: () =>
      supported(
        'containers of a pod share one network compartment on Windows Server 1709 and later',
        sources(cite.v19Guide('shared network namespace needs 1709+'), cite.intro()),
      ),
    probe: multiContainerProbe,
  },
];
