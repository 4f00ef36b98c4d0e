// Probe logic of the limited security features against canned Windows answers: each must see
// its limitation (limited) and, when the cluster behaves otherwise, the limitation lifted. The
// simulated cluster cannot lift these two yet, so they are exercised here with a fake context.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { outcomeOf } from '../../lib/catalog/outcome.ts';
import type { CheckContext, Feature, Observation } from '../../lib/catalog/types.ts';
import { features as security } from '../../lib/catalog/features/security.ts';
import { FixtureError } from '../../lib/fixtures/errors.ts';
import { Redactor } from '../../lib/fixtures/secrets.ts';
import { runProbe } from '../../lib/probes/run.ts';
import type { CommandResult, Transport } from '../../lib/probes/types.ts';
import { cluster } from '../harness/clusterFixture.ts';

const feature = (id: string): Feature => security.find(f => f.id === id)!;

function readyPod(name: string, spec: Partial<V1Pod['spec']> = {}): V1Pod {
  return {
    metadata: { name, namespace: 'ns' },
    spec: { nodeName: 'win-1', containers: [{ name: 'c', image: 'x' }], ...spec } as V1Pod['spec'],
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** A context whose pods are Ready and whose exec answers from `answer(argv)`. */
function fakeContext(o: { pod?: V1Pod; rejected?: string; answer: (argv: string[]) => CommandResult }): CheckContext {
  const transport: Transport = { description: 'exec ns/pod', os: 'windows', run: async argv => o.answer(argv as string[]) };
  const ctx = {
    cluster: cluster(), namespace: 'ns', runId: 'r', labels: {}, secrets: {},
    fixture: (id: string) => { if (o.rejected) throw new FixtureError(id, o.rejected); return { spec: { id, template: id, os: 'windows' }, objects: [] }; },
    waitForPodReady: async () => o.pod!,
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
    const r = await verdict('sec.privileged', fakeContext({
      pod: readyPod('privileged'),
      answer: () => ({ stdout: '', stderr: "Get-Service : Cannot find any service with service name 'kubelet'.\r\n", exitCode: 1 }),
    }));
    expect(r.outcome).to.equal('limited');
    expect(r.obs.summary).to.contain('ignored');
  });

  it('sec.privileged: limited when the API server rejects it', async () => {
    const r = await verdict('sec.privileged', fakeContext({ rejected: 'spec.containers[0].securityContext.privileged: Forbidden', answer: () => ok('') }));
    expect(r.outcome).to.equal('limited');
    expect(r.obs.summary).to.contain('rejected');
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
    const rejected = await verdict('sec.linux-fields-ignored', fakeContext({ rejected: 'spec.securityContext.runAsUser: Forbidden', answer: () => ok('') }));
    expect(rejected.outcome).to.equal('lifted');
    const changed = await verdict('sec.linux-fields-ignored', fakeContext({ pod: readyPod('linux-fields'), answer: () => ok('user1000\r\n') }));
    expect(changed.outcome).to.equal('lifted');
  });
});
