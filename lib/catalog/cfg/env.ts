// Configuration (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Configuration"): env from Secrets and ConfigMaps.

import { supported } from '../expect.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';
import { cite, sources } from '../../facts/sources.ts';

/** Reads each env var in the pod and compares it here; secret values never reach the evidence. */
async function envMatches(ctx: CheckContext, pod: string, expected: Record<string, string>, secret: boolean): Promise<Observation> {
  const r = await fixturePodReady(ctx, pod);
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  const t = ctx.podTransport(pod, 'windows');
  const results = [];
  for (const [name, value] of Object.entries(expected)) results.push(await ctx.probe(t, { kind: 'read-env', name, expect: value, secret }));
  const bad = results.filter(x => !x.ok);
  return {
    works: bad.length === 0,
    summary: bad.length ? bad.map(b => b.detail).join('; ') : `${Object.keys(expected).join(', ')} have the expected values`,
    evidence: results.map(x => x.evidence),
    node,
  };
}

export const features: Feature[] = [
  {
    id: 'cfg.secret-env',
    area: 'config',
    title: 'Secret keys as env vars with the right values',
    needs: ['windows-node'],
    fixtures: [{ id: 'secret-env', template: 'secret-pod', os: 'windows', pin: 'none' }],
    expect: () => supported('secretKeyRef env vars are supported on Windows', sources(cite.v19Guide('secret-pod'), cite.intro())),
    probe: ctx => envMatches(ctx, 'secret-env', { SECRET_USERNAME: ctx.secrets.username, SECRET_PASSWORD: ctx.secrets.password }, true),
  },
  {
    id: 'cfg.configmap-env',
    area: 'config',
    title: 'ConfigMap keys as env vars',
    needs: ['windows-node'],
    fixtures: [{ id: 'configmap-env', template: 'configmap-pod', os: 'windows', pin: 'none' }],
    expect: () => supported('configMapKeyRef env vars are supported on Windows', sources(cite.v19Guide('configmap-pod'), cite.intro())),
    probe: ctx => envMatches(ctx, 'configmap-env', { EXAMPLE_PROPERTY_1: 'hello', EXAMPLE_PROPERTY_2: 'world' }, false),
  },
];
