// Disruptive checks share the --disruptive-node: they take turns, after every routine check has ended.

import { expect } from 'chai';
import type { CheckResult, Feature } from '../../../lib/catalog/types.ts';
import type { ClusterInfo } from '../../../lib/discovery/types.ts';
import { disruptiveTurns, isDisruptive } from '../../../lib/run/disruptive.ts';
import { fixturesToDeploy } from '../../../lib/run/createFixtures.ts';

const feature = (id: string, disruptive: boolean) =>
  ({ id, area: 'node', title: id, fixtures: [], needs: disruptive ? ['windows-node', 'disruptive-node'] : ['windows-node'] }) as unknown as Feature;

describe('disruptive checks take turns', () => {
  it('runs disruptive checks one at a time, in the order they asked, and the others at once', async () => {
    const turns = disruptiveTurns(new AbortController().signal, async () => {});
    const log: string[] = [];
    let inside = 0;
    let peak = 0;
    const check = (f: Feature, ms: number) => async (): Promise<CheckResult> => {
      log.push(`begin ${f.id}`);
      if (isDisruptive(f)) peak = Math.max(peak, ++inside);
      await new Promise(r => setTimeout(r, ms));
      if (isDisruptive(f)) inside--;
      log.push(`end ${f.id}`);
      return { id: f.id, outcome: 'supported' } as CheckResult;
    };
    const reboot = feature('node.reboot', true);
    const eviction = feature('res.eviction-memory-pressure', true);
    const routine = feature('res.stats', false);
    await Promise.all([turns(reboot, check(reboot, 30)), turns(eviction, check(eviction, 10)), turns(routine, check(routine, 5))]);
    expect(peak).to.equal(1);
    expect(log.indexOf('begin res.eviction-memory-pressure')).to.be.above(log.indexOf('end node.reboot'));
    // The routine check did not wait for the disruptive ones.
    expect(log.indexOf('end res.stats')).to.be.below(log.indexOf('end node.reboot'));
  });

  it('begins disruptive checks only once every routine check has ended (they would lose their pods on that node)', async () => {
    let endRoutine!: () => void;
    const routineEnded = new Promise<void>(r => (endRoutine = r));
    const turns = disruptiveTurns(new AbortController().signal, () => routineEnded);
    const reboot = feature('node.reboot', true);
    let began = false;
    const result = turns(reboot, async () => {
      began = true;
      return { id: reboot.id, outcome: 'supported' } as CheckResult;
    });
    await new Promise(r => setImmediate(r));
    expect(began, 'began before the routine checks ended').to.equal(false);
    endRoutine();
    expect((await result).outcome).to.equal('supported');
    expect(began).to.equal(true);
  });

  it('a check waiting for the routine checks rejects when the run is interrupted', async () => {
    const abort = new AbortController();
    const turns = disruptiveTurns(abort.signal, () => new Promise(() => {}));
    const reboot = feature('node.reboot', true);
    const waiting = turns(reboot, async () => ({ id: reboot.id, outcome: 'supported' }) as CheckResult);
    abort.abort(new Error('interrupted (SIGTERM)'));
    await waiting.then(
      () => expect.fail('should reject'),
      (e: unknown) => expect(String(e)).to.contain('SIGTERM'),
    );
  });

  it('a check waiting for its turn rejects when the run is interrupted', async () => {
    const abort = new AbortController();
    const turns = disruptiveTurns(abort.signal, async () => {});
    const a = feature('node.reboot', true);
    const b = feature('node.graceful-shutdown', true);
    let release!: () => void;
    const first = turns(a, () => new Promise<CheckResult>(r => (release = () => r({ id: a.id, outcome: 'supported' } as CheckResult))));
    let ran = false;
    const second = turns(b, async () => {
      ran = true;
      return { id: b.id, outcome: 'supported' } as CheckResult;
    });
    // The first has its turn (the routine checks have ended) before the run is interrupted.
    await new Promise(r => setImmediate(r));
    abort.abort(new Error('interrupted (SIGINT)'));
    await second.then(
      () => expect.fail('should reject'),
      (e: unknown) => expect(String(e)).to.contain('SIGINT'),
    );
    release();
    expect((await first).outcome).to.equal('supported');
    expect(ran).to.equal(false);
  });
});

describe('fixtures of disruptive features', () => {
  const f = {
    id: 'res.eviction-memory-pressure',
    area: 'resources',
    title: 't',
    needs: ['disruptive-node'],
    fixtures: [{ id: 'eviction-control', template: 'eviction-consumer', os: 'windows', pin: 'disruptive-node' }],
    expect: () => ({ expected: 'supported', reason: 'r', source: [] }),
  } as unknown as Feature;
  const cluster = { nodes: [] } as unknown as ClusterInfo;

  it('are deployed only when the run names a --disruptive-node', () => {
    expect(fixturesToDeploy([f], cluster, {})).to.deep.equal([]);
    expect(fixturesToDeploy([f], cluster, { disruptiveNode: 'win-2022-1' }).map(s => s.id)).to.deep.equal(['eviction-control']);
  });
});
