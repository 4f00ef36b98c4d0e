// WaveRunner deletes, during the run, the fixtures whose every check has ended (in batches), and
// keeps those a check still to end uses; cluster-scoped objects are left to the run's cleanup.

import { expect } from 'chai';
import type { KubernetesObject } from '@kubernetes/client-node';
import { WaveRunner } from '../../../lib/run/waves.ts';
import type { Feature } from '../../../lib/catalog/types.ts';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import type { FixtureTarget } from '../../../lib/run/createFixtures.ts';
import type { RenderedFixture } from '../../../lib/fixtures/types.ts';
import type { Redactor } from '../../../lib/fixtures/secrets.ts';
import { FIXTURE_LABEL } from '../../../lib/labels.ts';

const NS = 'wincheck-test';
const obj = (kind: string, name: string, namespace?: string): KubernetesObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
});
const fixture = (id: string, objects: KubernetesObject[]): RenderedFixture => ({ spec: { id, template: id, os: 'windows' }, objects });

function setup() {
  const deleted: string[] = [];
  const collections: string[] = [];
  let onCollection = () => {};
  const kube = {
    objects: {
      delete: async (o: KubernetesObject) => {
        deleted.push(`${o.kind}/${o.metadata?.name}`);
        return {};
      },
    },
    core: {
      deleteCollectionNamespacedPod: async (q: { labelSelector: string }) => {
        collections.push(q.labelSelector);
        onCollection();
        return {};
      },
    },
  } as unknown as KubeClients;
  const target: FixtureTarget = { namespace: NS, render: {} as FixtureTarget['render'], fixtures: new Map() };
  const a = fixture('a', [obj('Service', 'a', NS), obj('Pod', 'a', NS)]);
  const b = fixture('b', [obj('RuntimeClass', 'b-rc'), obj('Pod', 'b', NS)]);
  target.fixtures.set('a', a);
  target.fixtures.set('b', b);
  const plan = { target, specs: [a.spec, b.spec] };
  const fixtures = new Map([
    [`${NS}/a`, { plan, spec: a.spec, rendered: a }],
    [`${NS}/b`, { plan, spec: b.spec, rendered: b }],
  ]);
  const runner = new WaveRunner(
    {
      kube,
      redactor: { redact: (s: string) => s } as Redactor,
      signal: new AbortController().signal,
      releaseTimeoutMs: 1000,
      errors: [],
      log: () => {},
      unneededBatchMs: 1,
    },
    { waves: [{ features: ['f1', 'f2'], deploy: [`${NS}/a`, `${NS}/b`], release: [] }], unfit: new Map(), crowded: new Map() },
    fixtures,
    [plan],
    () => {},
    new Map([
      ['f1', [`${NS}/a`, `${NS}/b`]],
      ['f2', [`${NS}/b`]],
    ]),
  );
  const nextCollection = () => new Promise<void>(resolve => (onCollection = resolve));
  return { runner, target, deleted, collections, nextCollection };
}

const feature = (id: string) => ({ id }) as Feature;

describe('WaveRunner: fixtures no check needs any more', () => {
  it('deletes a fixture once its last check ends, and keeps one another check still uses', async () => {
    const { runner, target, deleted, collections, nextCollection } = setup();
    const first = nextCollection();
    await runner.run(feature('f1'), async () => 'done');
    await first;
    expect(deleted).to.deep.equal(['Pod/a', 'Service/a']);
    expect(collections).to.deep.equal([`${FIXTURE_LABEL} in (a)`]);
    expect(target.fixtures.has('a')).to.equal(false);
    expect(target.fixtures.has('b')).to.equal(true);

    const second = nextCollection();
    await runner.run(feature('f2'), async () => 'done');
    await second;
    // The RuntimeClass is cluster-scoped: left to the run's cleanup.
    expect(deleted).to.deep.equal(['Pod/a', 'Service/a', 'Pod/b']);
    expect(collections[1]).to.equal(`${FIXTURE_LABEL} in (b)`);
    await runner.idle();
  });

  it('deletes nothing once the run is tearing down (the namespace goes anyway)', async () => {
    const { runner, deleted, collections } = setup();
    const idle = runner.idle();
    await runner.run(feature('f1'), async () => 'done');
    await runner.run(feature('f2'), async () => 'done');
    await idle;
    // Longer than the batch's 1 ms: a batch scheduled anyway would have run by now.
    await new Promise<void>(resolve => setTimeout(resolve, 20));
    expect(deleted).to.deep.equal([]);
    expect(collections).to.deep.equal([]);
  });
});
