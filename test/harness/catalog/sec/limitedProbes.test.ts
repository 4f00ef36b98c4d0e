// Probe logic of the limited security features against canned Windows answers: each must see
// its limitation (limited) and, when the cluster behaves otherwise, the limitation lifted. The
// simulated cluster cannot lift these two yet, so they are exercised here with a fake context.

import { expect } from 'chai';
import { ApiException, type V1Pod } from '@kubernetes/client-node';
import { MeansError } from '../../../../lib/cluster/meansError.ts';
import { PodStartError } from '../../../../lib/cluster/podWait.ts';
import { outcomeOf } from '../../../../lib/catalog/outcome.ts';
import type { CheckContext, Feature, Observation } from '../../../../lib/catalog/types.ts';
import { features as security } from '../../../../lib/catalog/sec/security.ts';
import { FixtureError } from '../../../../lib/fixtures/errors.ts';
import { Redactor } from '../../../../lib/fixtures/secrets.ts';
import { runProbe } from '../../../../lib/probes/runProbe.ts';
import type { Transport } from '../../../../lib/probes/types.ts';
import type { CommandResult } from '../../../../lib/cluster/exec.ts';
import { cluster } from '../../../support/clusterFixture.ts';

const feature = (id: string): Feature => security.find(f => f.id === id)!;

function readyPod(name: string, spec: Partial<V1Pod['spec']> = {}): V1Pod {
  return {
    metadata: { name, namespace: 'ns' },
    spec: { nodeName: 'win-1', containers: [{ name: 'c', image: 'x' }], ...spec } as V1Pod['spec'],
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** The API server's refusal of a fixture, as deploy records it: a FixtureError around the ApiException. */
function refusal(code: number, field: string, message: string): FixtureError {
  const body = JSON.stringify({ kind: 'Status', code, message: `Pod "x" is invalid: ${field}: ${message}`, details: { causes: [{ field, message }] } });
  const api = new ApiException(code, 'refused', body, {});
  return new FixtureError('x', `failed to deploy fixture "x": ${field}: ${message}`, { cause: new Error('failed to create Pod', { cause: api }) });
}

/** A context whose pods are Ready and whose exec answers from `answer(argv)`. */
function fakeContext(o: { pod?: V1Pod; rejected?: FixtureError; startError?: PodStartError; answer: (argv: string[]) => CommandResult }): CheckContext {
  const transport: Transport = { description: 'exec ns/pod', os: 'windows', run: async argv => o.answer(argv as string[]) };
  const ctx = {
    cluster: cluster(),
    namespace: 'ns',
    runId: 'r',
    labels: {},
    secrets: {},
    fixture: (id: string) => {
      if (o.rejected) throw o.rejected;
      return { spec: { id, template: id, os: 'windows' }, objects: [] };
    },
    waitForPodReady: async () => {
      if (o.startError) throw o.startError;
      return o.pod!;
    },
    podsCannotAppear: () => undefined,
    podTransport: () => transport,
    probe: (t: Transport, op: Parameters<typeof runProbe>[1]) => runProbe(t, op, new Redactor([])),
    step: () => undefined,
    signal: new AbortController().signal,
    options: { timeouts: { podStart: 1000 } },
  };
  return ctx as unknown as CheckContext;
}

async function verdict(id: string, ctx: CheckContext): Promise<{ outcome: string; obs: Observation }> {
  const f = feature(id);
  const obs = await f.probe(ctx);
  return { outcome: outcomeOf(f.expect(cluster()), obs).outcome, obs };
}

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });

describe('features-risn: limited security probes see the limitation and its lifting', () => {
  it('sec.privileged: limited when the container cannot see the host services (WINDOWS-COMMANDS §5 error)', async () => {
    const r = await verdict(
      'sec.privileged',
      fakeContext({
        pod: readyPod('privileged'),
        answer: () => ({ stdout: '', stderr: "Get-Service : Cannot find any service with service name 'kubelet'.\r\n", exitCode: 1 }),
      }),
    );
    expect(r.outcome).to.equal('limited');
    expect(r.obs.summary).to.contain('ignored');
  });

  it('sec.privileged: limited when the API server rejects it with a 422 naming the field', async () => {
    const r = await verdict(
      'sec.privileged',
      fakeContext({ rejected: refusal(422, 'spec.containers[0].securityContext.privileged', 'Forbidden: disallowed'), answer: () => ok('') }),
    );
    expect(r.outcome).to.equal('limited');
    expect(r.obs.summary).to.contain('rejected');
  });

  it('sec.privileged / sec.linux-fields-ignored: a 403 (RBAC, a webhook) or a 422 about another field is error, not the answer', async () => {
    const podSecurity = refusal(403, '', 'pods "privileged" is forbidden: User "ci" cannot create resource "pods" in API group "" in the namespace "ns"');
    for (const id of ['sec.privileged', 'sec.linux-fields-ignored']) {
      const f = feature(id);
      const err = await f.probe(fakeContext({ rejected: podSecurity, answer: () => ok('') })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, id).to.be.instanceOf(MeansError);
      expect(outcomeOf(f.expect(cluster()), undefined, err).outcome, id).to.equal('error');
      expect(outcomeOf(f.expect(cluster()), undefined, err).reason, id).to.contain('(forbidden)');
    }
    const other = await feature('sec.privileged')
      .probe(fakeContext({ rejected: refusal(422, 'spec.containers[0].image', 'Required value'), answer: () => ok('') }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(other).to.be.instanceOf(MeansError);
  });

  it("sec.linux-fields-ignored: a pod that was never scheduled is error (the harness's scheduling or capacity), never lifted", async () => {
    const pending: V1Pod = { metadata: { name: 'linux-fields', namespace: 'ns' }, spec: { containers: [{ name: 'c' }] } };
    const startError = new PodStartError(
      'expected pod ns/linux-fields to be Ready, got FailedScheduling instead: 0/3 nodes are available: 3 Too many pods',
      'FailedScheduling',
      pending,
      [],
    );
    const f = feature('sec.linux-fields-ignored');
    const err = await f.probe(fakeContext({ startError, answer: () => ok('') })).then(
      () => undefined,
      (e: unknown) => e,
    );
    const v = outcomeOf(f.expect(cluster()), undefined, err, f.subject);
    expect(v.outcome).to.equal('error');
    // No room on the nodes: the harness's capacity (others may have taken it), an error all the same.
    expect(v.reason).to.contain('(capacity)').and.contain('Too many pods');
  });

  it('sec.privileged / sec.linux-fields-ignored: an exec that answered nothing is error (no control), not a verdict', async () => {
    for (const id of ['sec.privileged', 'sec.linux-fields-ignored']) {
      const r = await verdict(
        id,
        fakeContext({ pod: readyPod(id === 'sec.privileged' ? 'privileged' : 'linux-fields'), answer: () => ({ stdout: '', stderr: '', exitCode: 1 }) }),
      );
      expect(r.outcome, id).to.equal('error');
    }
  });

  it('sec.privileged: lifted when the container sees the host kubelet service', async () => {
    const table = 'Status   Name               DisplayName\r\n------   ----               -----------\r\nRunning  kubelet            kubelet\r\n';
    const r = await verdict('sec.privileged', fakeContext({ pod: readyPod('privileged'), answer: () => ok(table) }));
    expect(r.outcome).to.equal('lifted');
  });

  it('sec.linux-fields-ignored: limited when Server Core still runs as ContainerAdministrator', async () => {
    const pod = readyPod('linux-fields', { securityContext: { runAsUser: 1000, fsGroup: 2000 } });
    const r = await verdict('sec.linux-fields-ignored', fakeContext({ pod, answer: () => ok('ContainerAdministrator\r\n') }));
    expect(r.outcome).to.equal('limited');
    expect(JSON.stringify(r.obs.evidence)).to.contain('echo %username%');
  });

  it('sec.linux-fields-ignored: lifted when the fields are rejected or take effect', async () => {
    const rejected = await verdict(
      'sec.linux-fields-ignored',
      fakeContext({ rejected: refusal(422, 'spec.securityContext.runAsUser', 'Forbidden: not supported'), answer: () => ok('') }),
    );
    expect(rejected.outcome).to.equal('lifted');
    const changed = await verdict('sec.linux-fields-ignored', fakeContext({ pod: readyPod('linux-fields'), answer: () => ok('user1000\r\n') }));
    expect(changed.outcome).to.equal('lifted');
  });
});
