// The critical path's pieces without a cluster: slots bound what costs (not checks in flight),
// the pool tells as checks begin and end, and the console prints checks as they finish with a
// heartbeat (CI log) or a live status line (terminal) naming what is still running.

import { expect } from 'chai';
import type { CheckResult, Feature } from '../../../lib/catalog/types.ts';
import { CheckPool } from '../../../lib/run/checkPool.ts';
import { KeyedLimiter, Limiter } from '../../../util/limiter.ts';
import ConsoleReporter, { nodesLine } from '../../../lib/report/console.ts';
import type { RunInfo, RunSummary } from '../../../lib/run/events.ts';
import { emptyCounts } from '../../../lib/run/events.ts';
import { cluster } from '../../support/clusterFixture.ts';

const feature = (id: string) => ({ id, area: 'networking', title: id, fixtures: [] }) as unknown as Feature;
const result = (id: string, outcome: CheckResult['outcome'] = 'supported'): CheckResult => ({
  id,
  area: 'networking',
  suite: 'networking',
  title: id,
  outcome,
  reason: outcome === 'supported' ? 'ok' : `why ${id}`,
  summary: '',
  evidence: [],
  steps: [],
  durationMs: 1500,
  expectation: { expected: 'supported', reason: 'r', source: [] },
});
const ids = ['net.a', 'net.b', 'net.c'];
const info: RunInfo = {
  runId: 'r1',
  namespace: 'wincheck-r1',
  simulated: false,
  cluster: cluster(),
  strict: false,
  startedAt: new Date().toISOString(),
  selected: ids.map(id => ({ id, suite: 'networking', area: 'networking', title: id })),
  reportDir: '',
  kubeconfigSource: 'test',
};
const summary = (): RunSummary => ({ status: 'passed', counts: emptyCounts(), results: [], durationMs: 1, errors: [] });
const tick = (ms: number) => new Promise(r => setTimeout(r, ms));

describe('Limiter: what costs is bounded, waiting is not', () => {
  it('lets at most `limit` holders in at once, first come first served', async () => {
    const l = new Limiter(2);
    let inside = 0,
      peak = 0;
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map(i =>
        l.run(async () => {
          peak = Math.max(peak, ++inside);
          order.push(i);
          await tick(5);
          inside--;
        }),
      ),
    );
    expect(peak).to.equal(2);
    expect(order).to.deep.equal([0, 1, 2, 3, 4]);
    expect(l.active).to.equal(0);
  });

  it('gives the slot back when the holder throws', async () => {
    const l = new Limiter(1);
    await l
      .run(async () => {
        throw new Error('boom');
      })
      .catch(() => undefined);
    expect(await l.run(async () => 'next')).to.equal('next');
  });

  it('a waiter whose signal aborts leaves the queue without taking a slot', async () => {
    const l = new Limiter(1);
    let release!: () => void;
    const holder = l.run(
      () =>
        new Promise<void>(r => {
          release = r;
        }),
    );
    const ac = new AbortController();
    const waiter = l.run(async () => 'never', ac.signal);
    expect(l.waiting).to.equal(1);
    ac.abort(new Error('interrupted'));
    await waiter.then(
      () => expect.fail('should reject'),
      (e: Error) => expect(e.message).to.equal('interrupted'),
    );
    expect(l.waiting).to.equal(0);
    release();
    await holder;
    expect(l.active).to.equal(0);
  });

  it('KeyedLimiter: one limiter per key, the same one again for the same key', () => {
    const k = new KeyedLimiter(2);
    expect(k.for('win-1')).to.equal(k.for('win-1'));
    expect(k.for('win-1')).to.not.equal(k.for('win-2'));
    expect(k.for('win-2').limit).to.equal(2);
  });
});

describe('CheckPool hooks', () => {
  it('tells each begin and each end as it happens, with the count finished so far', async () => {
    const events: string[] = [];
    const features = ids.map(feature);
    const delay: Record<string, number> = { 'net.a': 30, 'net.b': 5, 'net.c': 15 };
    const pool = new CheckPool(
      features,
      features.length,
      async f => {
        await tick(delay[f.id]);
        return result(f.id);
      },
      f => result(f.id, 'error'),
      new AbortController().signal,
      {
        onBegin: f => events.push(`begin ${f.id}`),
        onEnd: (r, done) => events.push(`end ${r.id} ${done}`),
      },
    );
    pool.start();
    const all = await Promise.all(features.map(f => pool.result(f)));
    expect(all.map(r => r.id)).to.deep.equal(ids);
    expect(events).to.deep.equal(['begin net.a', 'begin net.b', 'begin net.c', 'end net.b 1', 'end net.c 2', 'end net.a 3']);
  });
});

describe('console progress while checks run concurrently', () => {
  it('prints each check when it finishes, in the order they finish', () => {
    const lines: string[] = [];
    const c = new ConsoleReporter(l => lines.push(l), { heartbeatMs: 60_000 });
    c.onBegin(info);
    for (const id of ids) c.onCheckBegin({ id, suite: 'networking', area: 'networking', title: id });
    c.onCheckEnd(result('net.b'), { done: 1, total: 3 });
    c.onCheckEnd(result('net.a', 'regressed'), { done: 2, total: 3 });
    c.onCheckEnd(result('net.c', 'error'), { done: 3, total: 3 });
    const progress = lines.filter(l => l.startsWith('['));
    expect(progress).to.deep.equal([
      '[1/3] net.b  supported  (1.5s)',
      '[2/3] net.a  regressed  (1.5s)  why net.a',
      '[3/3] net.c  error      (1.5s)  why net.c',
    ]);
    c.onEnd(summary());
  });

  it('CI log: a heartbeat names what is still running, longest first, and stops when nothing runs', async () => {
    const lines: string[] = [];
    const c = new ConsoleReporter(l => lines.push(l), { heartbeatMs: 40 });
    c.onBegin(info);
    c.onCheckBegin({ id: 'net.a', suite: 'networking', area: 'networking', title: 'a' });
    await tick(5);
    c.onCheckBegin({ id: 'net.b', suite: 'networking', area: 'networking', title: 'b' });
    await tick(100);
    const beats = lines.filter(l => l.startsWith('...'));
    expect(beats.length).to.be.at.least(1);
    expect(beats[0]).to.match(/^\.\.\. 2 running: net\.a \d+s, net\.b \d+s$/);
    c.onCheckEnd(result('net.a'), { done: 1, total: 3 });
    c.onCheckEnd(result('net.b'), { done: 2, total: 3 });
    const before = lines.length;
    await tick(100);
    expect(lines.length).to.equal(before);
    c.onEnd(summary());
  });

  it('terminal: a live status line, lifted off before each printed line and cleared at the end', () => {
    const lines: string[] = [];
    const raw: string[] = [];
    const c = new ConsoleReporter(l => lines.push(l), { tty: true, write: s => raw.push(s), columns: 80 });
    c.onBegin(info);
    c.onCheckBegin({ id: 'net.a', suite: 'networking', area: 'networking', title: 'a' });
    // eslint-disable-next-line no-control-regex -- the terminal's erase-line sequence
    expect(raw.at(-1)).to.match(/^\r\x1b\[K\[0\/3\] 1 running: net\.a 0s$/);
    c.onCheckBegin({ id: 'net.b', suite: 'networking', area: 'networking', title: 'b' });
    c.onCheckEnd(result('net.a'), { done: 1, total: 3 });
    // Cleared, the line printed, the status drawn again with what still runs.
    expect(raw.slice(-2)).to.deep.equal(['\r\x1b[K', '\r\x1b[K[1/3] 1 running: net.b 0s']);
    expect(lines.at(-1)).to.equal('[1/3] net.a  supported  (1.5s)');
    c.onCheckEnd(result('net.b'), { done: 2, total: 3 });
    c.onEnd(summary());
    expect(raw.at(-1)).to.equal('\r\x1b[K');
    expect(lines.some(l => l.includes('running'))).to.equal(false);
  });
});

describe('console: the nodes line', () => {
  const node = (name: string, os: 'linux' | 'windows', windowsBuild?: string) => ({ name, os, windowsBuild });
  it('names every node of a small cluster, with its OS and build', () => {
    expect(nodesLine([node('l1', 'linux'), node('w1', 'windows', '20348')])).to.equal('l1 (linux), w1 (windows 20348)');
  });
  it("summarises a large cluster per pool and OS kind, with each pool's first and last node", () => {
    const nodes = [
      node('control-plane', 'linux'),
      ...Array.from({ length: 12 }, (_, i) => node(`linux-${i + 1}`, 'linux')),
      ...Array.from({ length: 30 }, (_, i) => node(`win22-${i + 1}`, 'windows', '10.0.20348')),
      ...Array.from({ length: 20 }, (_, i) => node(`win19-${i + 1}`, 'windows', '10.0.17763')),
    ];
    expect(nodesLine(nodes)).to.equal(
      '63 in 4 pool(s): 30 windows 10.0.20348 in pool win22 (win22-1 … win22-30), 20 windows 10.0.17763 in pool win19 (win19-1 … win19-20), 12 linux in pool linux (linux-1 … linux-12), 1 linux: control-plane',
    );
  });
  it("names a pool by its provider's label over the node's name, and counts the pools beyond the first eight", () => {
    const aks = (name: string, pool: string) => ({ ...node(name, 'windows', '10.0.20348'), labels: { 'kubernetes.azure.com/agentpool': pool } });
    expect(nodesLine([...Array.from({ length: 9 }, (_, i) => aks(`aksnpwin00000${i}`, 'npwin'))])).to.equal(
      '9 in 1 pool(s): 9 windows 10.0.20348 in pool npwin (aksnpwin000000 … aksnpwin000008)',
    );
    const many = Array.from({ length: 20 }, (_, i) => node(`p${String.fromCharCode(97 + (i % 10))}-${i}`, 'linux'));
    const line = nodesLine(many);
    expect(line).to.match(/^20 in 10 pool\(s\): 2 linux in pool pa \(pa-0, pa-10\), /);
    expect(line).to.match(/, and 4 more in 2 other pool\(s\) \('wincheck discover' lists them\)$/);
  });
});
