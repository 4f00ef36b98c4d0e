// node.graceful-shutdown's pure parts: what the kubelet's NewManager decides from /configz and its
// version (pkg/kubelet/nodeshutdown/nodeshutdown_manager_windows.go, nodeshutdown_manager.go
// migrateConfig), the grace period each of upstream's pods is killed with, upstream's
// isPodShutdown, and the problems judged over the pods' sightings.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import {
  isPodShutdown,
  readShutdownConfig,
  SHUTDOWN_MESSAGE,
  shutdownGraceOf,
  shutdownProblems,
  SYSTEM_CRITICAL_PRIORITY,
  type PodSighting,
} from '../../../../lib/catalog/node/gracefulShutdown.ts';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import { cluster, winNode } from '../../../support/clusterFixture.ts';

const CRIT = 2_000_001_000;

function pod(o: { phase?: string; reason?: string; message?: string; ready?: boolean; disruption?: string } = {}): V1Pod {
  return {
    status: {
      phase: o.phase ?? 'Failed',
      reason: o.reason ?? 'Terminated',
      message: o.message ?? SHUTDOWN_MESSAGE,
      conditions: [
        { type: 'Ready', status: o.ready ? 'True' : 'False' },
        { type: 'ContainersReady', status: o.ready ? 'True' : 'False' },
        ...(o.disruption === undefined
          ? [{ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' }]
          : o.disruption
            ? [{ type: 'DisruptionTarget', status: 'True', reason: o.disruption }]
            : []),
      ],
    },
  };
}

describe('node.graceful-shutdown: reading', () => {
  it('the gate: featureGates decides when set, else the kubelet version (alpha 1.32-1.33 off, beta 1.34 on)', () => {
    const periods = { shutdownGracePeriod: '20s', shutdownGracePeriodCriticalPods: '10s' };
    expect(readShutdownConfig(periods, 'v1.33.2').gateOn).to.equal(false);
    expect(readShutdownConfig(periods, 'v1.33.2').disabled).to.match(
      /^graceful node shutdown is off on this kubelet: WindowsGracefulNodeShutdown at the default of kubelet v1.33.2 \(alpha, off by default\)/,
    );
    expect(readShutdownConfig(periods, 'v1.34.1').gateOn).to.equal(true);
    expect(readShutdownConfig(periods, 'v1.34.1').disabled).to.equal(undefined);
    expect(readShutdownConfig({ ...periods, featureGates: { WindowsGracefulNodeShutdown: true } }, 'v1.32.0').disabled).to.equal(undefined);
    const off = readShutdownConfig({ ...periods, featureGates: { WindowsGracefulNodeShutdown: false } }, 'v1.35.0');
    expect(off.gateOn).to.equal(false);
    expect(off.gate).to.equal("WindowsGracefulNodeShutdown=false in the kubelet's featureGates");
  });

  it('the periods: migrateConfig makes two groups; zero or a critical period above the total disables the manager', () => {
    expect(readShutdownConfig({ shutdownGracePeriod: '20s', shutdownGracePeriodCriticalPods: '10s' }, 'v1.34.0').groups).to.deep.equal([
      { priority: 0, seconds: 10 },
      { priority: SYSTEM_CRITICAL_PRIORITY, seconds: 10 },
    ]);
    expect(readShutdownConfig({ shutdownGracePeriod: '1m0s', shutdownGracePeriodCriticalPods: '15s' }, 'v1.34.0').groups[0].seconds).to.equal(45);
    const zero = readShutdownConfig({ shutdownGracePeriod: '0s', shutdownGracePeriodCriticalPods: '0s' }, 'v1.34.0');
    expect(zero.groups).to.deep.equal([]);
    expect(zero.disabled).to.match(
      /not configured on this kubelet: shutdownGracePeriod "0s", shutdownGracePeriodCriticalPods "0s" \("Node shutdown manager is disabled as no shutdown grace period is configured"/,
    );
    expect(readShutdownConfig({}, 'v1.34.0').disabled).to.match(/shutdownGracePeriod "0s"/);
    expect(readShutdownConfig({ shutdownGracePeriod: '5s', shutdownGracePeriodCriticalPods: '10s' }, 'v1.34.0').groups).to.deep.equal([]);
  });

  it('shutdownGracePeriodByPodPriority replaces the two periods when set (sorted by priority)', () => {
    const r = readShutdownConfig(
      {
        shutdownGracePeriodByPodPriority: [
          { priority: 100000, shutdownGracePeriodSeconds: 30 },
          { priority: 0, shutdownGracePeriodSeconds: 60 },
        ],
      },
      'v1.34.0',
    );
    expect(r.groups).to.deep.equal([
      { priority: 0, seconds: 60 },
      { priority: 100000, seconds: 30 },
    ]);
  });

  it("upstream's pods get the group's period or their own when shorter (20s/10s: 10, 10, 5, 10, 10)", () => {
    const { groups } = readShutdownConfig({ shutdownGracePeriod: '20s', shutdownGracePeriodCriticalPods: '10s' }, 'v1.34.0');
    expect([
      shutdownGraceOf(groups, 0, 20),
      shutdownGraceOf(groups, 0, 25),
      shutdownGraceOf(groups, CRIT, 5),
      shutdownGraceOf(groups, CRIT, 10),
      shutdownGraceOf(groups, CRIT, 20),
    ]).to.deep.equal([10, 10, 5, 10, 10]);
    expect(shutdownGraceOf(groups, -5, undefined), 'below every group: the lowest').to.equal(10);
  });

  it("isPodShutdown is upstream's: Failed, reason Terminated, the message, ContainersReady False", () => {
    expect(isPodShutdown(pod())).to.equal(true);
    expect(isPodShutdown(pod({ phase: 'Running' }))).to.equal(false);
    expect(isPodShutdown(pod({ reason: 'Evicted' }))).to.equal(false);
    expect(isPodShutdown(pod({ message: 'other' }))).to.equal(false);
    expect(isPodShutdown(pod({ ready: true }))).to.equal(false);
  });

  it('problems: a pod not shut down, no DisruptionTarget, Failed while Ready, a critical pod before a normal one', () => {
    const at = (seq: number) => ({ seq, ms: seq * 100 });
    const good: PodSighting[] = [
      { name: 'period-20', critical: false, shutdownAt: at(1), last: pod() },
      { name: 'period-25', critical: false, shutdownAt: at(2), last: pod() },
      { name: 'period-critical-5', critical: true, shutdownAt: at(3), last: pod() },
    ];
    expect(shutdownProblems(good)).to.deep.equal([]);
    expect(shutdownProblems([{ ...good[0], shutdownAt: undefined, last: pod({ phase: 'Running', reason: '', message: '' }) }])).to.deep.equal([
      'pod period-20 was not shut down by the kubelet (phase Running)',
    ]);
    expect(shutdownProblems([{ ...good[0], last: pod({ disruption: '' }) }])).to.deep.equal([
      'pod period-20 has no DisruptionTarget condition with reason TerminationByKubelet',
    ]);
    expect(shutdownProblems([{ ...good[0], failedReady: true }])).to.deep.equal(['pod period-20 reported phase Failed while Ready (kubernetes#108594)']);
    expect(shutdownProblems([good[0], { ...good[2], shutdownAt: at(0) }, good[1]])).to.deep.equal([
      'critical pod(s) period-critical-5 shut down before non-critical pod period-25',
    ]);
  });

  it('expectation: n/a when every Windows kubelet predates 1.32, else supported citing node_shutdown.go', async () => {
    const f = (await loadCatalog()).find(x => x.id === 'node.graceful-shutdown')!;
    const old = f.expect(cluster({ nodes: [winNode('w1', '10.0.20348', { kubeletVersion: 'v1.31.4' })] }));
    expect(old.expected).to.equal('n/a');
    expect(old.reason).to.match(/older than 1.32 \(v1.31.4\)/);
    const now = f.expect(cluster());
    expect(now.expected).to.equal('supported');
    expect(now.source.map(s => s.url).join(' ')).to.contain('test/e2e/windows/node_shutdown.go');
    expect(f.needs).to.include('disruptive-node');
  });
});
