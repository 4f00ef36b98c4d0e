// Critical path first (lib/run/priority.ts): the checks that wait longest by design are served
// first wherever the run queues (fixture creation, check start, exec slots); pod-ready waits
// of many checks for one pod share one watch (lib/cluster/sharedPodWaits.ts). No timings: orders only.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { loadCatalog } from '../../../lib/catalog/registry.ts';
import type { Feature } from '../../../lib/catalog/types.ts';
import { defaultTimeouts, type Timeouts } from '../../../lib/cluster/timeouts.ts';
import type { FixtureSpec } from '../../../lib/fixtures/types.ts';
import { Limiter } from '../../../util/limiter.ts';
import { SharedPodWaits } from '../../../lib/cluster/sharedPodWaits.ts';
import { byPriority, fixturesByPriority, HEAD_START_MAX_MS, headStart, ranksOf } from '../../../lib/run/priority.ts';

const spec = (id: string) => ({ id, template: id, os: 'windows' }) as FixtureSpec;
const feature = (id: string, fixtures: string[], designedWaitMs?: (t: Timeouts) => number) =>
  ({ id, area: 'networking', title: id, fixtures: fixtures.map(spec), ...(designedWaitMs ? { designedWaitMs } : {}) }) as unknown as Feature;

describe('critical path first: the order', () => {
  const t = defaultTimeouts();
  const features = [
    feature('a', ['x']),
    feature('b', ['y', 'z'], tt => tt.netSteady),
    feature('c', ['z'], () => 3_000),
    feature('d', ['w'], tt => tt.netSteady),
    feature('e', ['x'], () => 20_000),
  ];

  it('longest designed wait first; equal waits (and none) keep their catalog order', () => {
    expect(byPriority(features, t).map(f => f.id)).to.deep.equal(['e', 'b', 'd', 'c', 'a']);
    // A copy: the run's own list (report order) is left alone.
    expect(features.map(f => f.id)).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
  });

  it("the waits come from the run's timeouts (a shorter steady period moves those checks down)", () => {
    expect(byPriority(features, { ...t, netSteady: 1_000 }).map(f => f.id)).to.deep.equal(['e', 'c', 'b', 'd', 'a']);
  });

  it('fixtures go in the best rank of the features using them; unused ones last, in their order', () => {
    const ranks = ranksOf(byPriority(features, t));
    expect(ranks.get('e')).to.equal(0);
    const ordered = fixturesByPriority(['w', 'x', 'y', 'z', 'unused', 'v'].map(spec), ranks, [...features, feature('f', [])]);
    // x: e (0); y, z: b (1); w: d (2); then unused, v.
    expect(ordered.map(s => s.id)).to.deep.equal(['x', 'y', 'z', 'w', 'unused', 'v']);
  });

  it('in the catalog, the checks with idle rounds, a controller sync or a steady period come before those without', async () => {
    const order = byPriority(await loadCatalog(), t);
    const waits = order.map(f => f.designedWaitMs?.(t) ?? 0);
    expect(waits, 'sorted longest first').to.deep.equal([...waits].sort((x, y) => y - x));
    const first = order
      .slice(0, 2)
      .map(f => f.id)
      .sort();
    expect(first).to.deep.equal(['net.session-affinity-timeout', 'work.hpa']);
    const steady = order.filter(f => f.designedWaitMs?.(t) === t.netSteady).map(f => f.id);
    expect(steady).to.include.members(['net.pod-to-clusterip', 'net.w2w-same-node', 'net.dns-service', 'net.session-affinity']);
    expect(waits.filter(w => w > 0).length).to.be.below(order.length / 2);
  });
});

describe('Limiter: queued by rank', () => {
  const tick = () => new Promise(r => setTimeout(r, 1));

  it('while every slot is taken, waiters are served lowest rank first, first come first served within a rank', async () => {
    const l = new Limiter(1);
    let release!: () => void;
    const holder = l.run(
      () =>
        new Promise<void>(r => {
          release = r;
        }),
    );
    const served: string[] = [];
    const waiters = [
      ['late-default', undefined],
      ['r5-a', 5],
      ['r0', 0],
      ['r5-b', 5],
      ['r2', 2],
    ].map(([name, rank]) =>
      l.run(
        async () => {
          served.push(name as string);
          await tick();
        },
        undefined,
        rank as number | undefined,
      ),
    );
    expect(l.waiting).to.equal(5);
    await tick();
    release();
    await Promise.all([holder, ...waiters]);
    expect(served).to.deep.equal(['r0', 'r2', 'r5-a', 'r5-b', 'late-default']);
  });

  it('a free slot is taken at once, whatever the rank', async () => {
    const l = new Limiter(2);
    expect(await l.run(async () => 'now', undefined, 99)).to.equal('now');
    expect(l.active).to.equal(0);
  });
});

describe('SharedPodWaits: one wait per pod in flight', () => {
  const pod = (name: string) => ({ metadata: { name } }) as V1Pod;

  it('joins a wait in flight for the same pod; another pod or namespace gets its own', async () => {
    const started: string[] = [];
    const resolvers = new Map<string, (p: V1Pod) => void>();
    const waits = new SharedPodWaits((ns, name) => {
      started.push(`${ns}/${name}`);
      return new Promise(r => resolvers.set(`${ns}/${name}`, r));
    });
    const signal = new AbortController().signal;
    const a1 = waits.wait('ns', 'a', 1000, signal);
    const a2 = waits.wait('ns', 'a', 1000, signal);
    const b = waits.wait('ns', 'b', 1000, signal);
    const a3 = waits.wait('other', 'a', 1000, signal);
    expect(started).to.deep.equal(['ns/a', 'ns/b', 'other/a']);
    resolvers.get('ns/a')!(pod('a'));
    expect((await a1).metadata?.name).to.equal('a');
    expect(await a2).to.equal(await a1);
    resolvers.get('ns/b')!(pod('b'));
    resolvers.get('other/a')!(pod('a'));
    await Promise.all([b, a3]);
    expect(waits.inFlight).to.equal(0);
  });

  it('keeps nothing once settled: a later wait looks again', async () => {
    let n = 0;
    const waits = new SharedPodWaits(async (_ns, name) => {
      n++;
      return pod(name);
    });
    const signal = new AbortController().signal;
    await waits.wait('ns', 'a', 1000, signal);
    await waits.wait('ns', 'a', 1000, signal);
    expect(n).to.equal(2);
  });

  it('a failed wait fails every caller with its error', async () => {
    let fail!: (e: Error) => void;
    const waits = new SharedPodWaits(
      () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
    );
    const signal = new AbortController().signal;
    const both = [waits.wait('ns', 'a', 1000, signal), waits.wait('ns', 'a', 1000, signal)];
    fail(new Error('expected pod ns/a to be Ready, got ErrImagePull instead'));
    for (const w of both)
      await w.then(
        () => expect.fail('should reject'),
        (e: Error) => expect(e.message).to.match(/ErrImagePull/),
      );
  });

  it('a caller whose signal aborts stops waiting; the others still get the pod', async () => {
    let resolve!: (p: V1Pod) => void;
    const waits = new SharedPodWaits(
      () =>
        new Promise(r => {
          resolve = r;
        }),
    );
    const ac = new AbortController();
    const gone = waits.wait('ns', 'a', 1000, ac.signal);
    const stays = waits.wait('ns', 'a', 1000, new AbortController().signal);
    ac.abort(new Error('check deadline'));
    await gone.then(
      () => expect.fail('should reject'),
      (e: Error) => expect(e.message).to.equal('check deadline'),
    );
    resolve(pod('a'));
    expect((await stays).metadata?.name).to.equal('a');
  });
});

describe('critical path first: the head start', () => {
  const t = defaultTimeouts();
  const none = () => false;

  it('the longest designed waits (within a second of the longest) go first; the rest wait half their slack, at most 2 s', () => {
    const h = headStart(
      [feature('a', ['x']), feature('b', ['y'], () => 10_000), feature('c', ['z'], () => 15_000), feature('d', ['w'], () => 14_000)],
      t,
      none,
    )!;
    expect(h.head.map(f => f.id)).to.deep.equal(['c', 'd']);
    expect(h.boundMs).to.equal(HEAD_START_MAX_MS);
    // Slack 14 s - 12 s: half of it.
    expect(headStart([feature('b', ['y'], () => 12_000), feature('d', ['w'], () => 14_000)], t, none)!.boundMs).to.equal(1_000);
  });

  it('none when nothing stands out, or nothing waits by design', () => {
    // Waits a tenth of a second apart all the way down: no slack anywhere to give.
    expect(headStart([feature('b', ['y'], () => 12_950), feature('c', ['z'], () => 13_050), feature('d', ['w'], () => 14_000)], t, none)).to.equal(undefined);
    expect(headStart([feature('a', ['x']), feature('e', ['y'])], t, none)).to.equal(undefined);
  });

  it('a disruptive check is never the head: it runs after every routine one', () => {
    const h = headStart([feature('reboot', ['r'], () => 60_000), feature('b', ['y'], () => 10_000)], t, f => f.id === 'reboot')!;
    expect(h.head.map(f => f.id)).to.deep.equal(['b']);
  });
});
