// Environment variable names with ':' (the .NET configuration style) in a Windows pod.

import { k8sAtLeast } from '../../facts/kubernetes.ts';
import { FixtureError } from '../../fixtures/errors.ts';
import { limited, supported } from '../expect.ts';
import { control, fieldRejection, notStarted } from '../kit/observe.ts';
import { podSettles } from '../kit/podWaits.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';
import { cite, sources } from '../../facts/sources.ts';

const COLON_ENV = 'Logging:LogLevel:Default';
const UNDERSCORE_ENV = 'Logging__LogLevel__Default';

async function envColonProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'env-colon';
  try {
    ctx.fixture(name);
  } catch (e) {
    // Rejected by the API server with a 422 naming the env name: the documented limitation
    // (before KEP-4369). Any other refusal is the harness's means (fieldRejection throws).
    if (!(e instanceof FixtureError)) throw e;
    const refused = fieldRejection(e, /env\[\d+\]\.name/);
    return { works: false, summary: `the API server rejected env name "${COLON_ENV}"`, evidence: [refused.message], control: refused.control };
  }
  ctx.step(`waiting for pod ${name} to be Ready`);
  const r = await podSettles(ctx, name, 'ready');
  if (!r.ok) return notStarted(name, r.error);
  const node = r.pod.spec?.nodeName;
  // `echo %A:B%` would be read by cmd as a substitution; `set <prefix>` lists names as they are.
  ctx.step('listing Logging* variables with cmd /c set Logging');
  const res = await ctx.probe(ctx.podTransport(name, 'windows'), { kind: 'list-env', prefix: 'Logging' });
  const lines = res.evidence.stdout.split(/\r?\n/).map(l => l.trim());
  const colon = lines.includes(`${COLON_ENV}=Debug`);
  const underscore = lines.includes(`${UNDERSCORE_ENV}=Debug`);
  return {
    // Control: the fixture's other variable (no colon) is listed, so `set` saw the environment.
    control: control(
      underscore,
      underscore ? `${UNDERSCORE_ENV}=Debug is listed by set Logging` : `set Logging did not list ${UNDERSCORE_ENV} either (exit ${res.evidence.exitCode})`,
    ),
    works: colon,
    summary: colon
      ? `the pod was accepted and ${COLON_ENV}=Debug is visible in the container`
      : `the pod was accepted but ${COLON_ENV} is not in the container's environment${underscore ? ` (the v1.9 guide's ${UNDERSCORE_ENV} is)` : ''}`,
    evidence: [res.evidence],
    node,
  };
}

export const features: Feature[] = [
  {
    id: 'work.env-colon-name',
    area: 'workloads',
    title: "Env var name with ':' (.NET configuration style)",
    needs: ['windows-node'],
    fixtures: [{ id: 'env-colon', template: 'env-colon', os: 'windows' }],
    expect: c =>
      k8sAtLeast(c.version, 1, 32)
        ? supported(`Kubernetes ${c.version.gitVersion} >= 1.32: RelaxedEnvironmentVariableValidation is on by default and accepts ':' in env names`, [
            cite.intro('KEP-4369: beta 1.32, GA 1.34'),
          ])
        : limited(
            `Kubernetes ${c.version.gitVersion} < 1.32: env names with ':' are rejected unless the RelaxedEnvironmentVariableValidation gate is on; the v1.9 docs say use '__'`,
            sources(cite.v19Guide(), cite.intro('KEP-4369: alpha 1.30, beta 1.32')),
          ),
    probe: envColonProbe,
  },
];
