// The networking and services suites against the simulated cluster, in-process: documented
// outcomes on the default profile; a lifted limitation (ICMP egress) seen as lifted; a broken
// path (w2l) regressing exactly the feature on that path; the local-NodePort limitation seen on
// the Windows node and not on the Linux one; real connections from the probing pod's own
// address (agnhost /clientip); the summary.md matrix agreeing with the JUnit testcases.
// Two full runs (default, then lifted + broken) and two small ones (DSR off/no LB, 2019);
// periods shortened through the run's timeouts (simRun.ts FAST_NET).

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { clientIpOf } from '../../../lib/catalog/net/parse.ts';
import { NET_PATHS } from '../../../lib/report/connectivityMatrix.ts';
import type { CheckResult, Outcome } from '../../../lib/catalog/types.ts';
import type { Evidence } from '../../../lib/probes/types.ts';
import { CELL_WORD } from '../../../lib/report/connectivityMatrix.ts';
import { testcaseContext } from '../../../lib/report/junit.ts';
import type { Profile } from '../../../sim/index.ts';
import { loadProfile, withOverrides } from '../../../sim/profiles/load.ts';
import { FAST_NET, runOnSim, type SimRun as NetSimRun, type SimRunOptions } from '../../support/simRun.ts';

const runNetOnSim = (profile: Profile, features: string[], o: SimRunOptions = {}): Promise<NetSimRun> =>
  runOnSim(features, { ...o, base: profile, timeouts: FAST_NET });

// The sim's host outside the cluster (sim/network/addresses.ts): the harness only gets a URL.
const EGRESS_URL = 'http://egress.wincheck.test/';

/** the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) on the default profile (v1.33, two WS2022 nodes, flannel l2bridge, DSR on, LB, single-stack). */
const DOCUMENTED: Record<string, Outcome> = {
  'net.pod-ip': 'supported',
  'net.w2w-same-node': 'supported',
  'net.w2w-cross-node': 'supported',
  'net.w2l': 'supported',
  'net.l2w': 'supported',
  'net.pod-to-clusterip': 'supported',
  'net.dns-service': 'supported',
  'net.dns-dotted-name': 'limited',
  'net.dns-hostnet': 'limited',
  'net.dns-config': 'supported',
  'net.egress': 'supported',
  'net.linux-egress': 'supported',
  'net.endpointslices-windows': 'supported',
  'net.icmp-egress': 'limited',
  'net.node-to-pod': 'supported',
  'net.udp-pod-to-pod': 'supported',
  'net.udp-node-to-pod': 'supported',
  'net.node-to-service': 'supported',
  'net.nodeport-external': 'supported',
  'net.pod-to-nodeport': 'supported',
  'net.service-churn': 'supported',
  'net.nodeport-local': 'limited',
  'net.lb': 'supported',
  'net.session-affinity': 'supported',
  'net.session-affinity-timeout': 'limited',
  'net.preserve-client-ip': 'supported',
  'net.preserve-destination': 'supported',
  'net.dual-stack': 'n/a',
  'net.ipv6-only': 'n/a',
  // The default profile's CNI (flannel) enforces no NetworkPolicy on Windows: n/a, with why.
  'net.network-policy': 'n/a',
  'net.hairpin': 'supported',
};

/**
 * Where the sim does not (yet) let the documented outcome be seen. Not bent around in the
 * harness: the harness says why it cannot tell. (preserve-destination was one until the
 * sim's netstat: it is now read from netstat -an in the backends.)
 */
const SIM_GAPS: Record<string, { outcome: Outcome; reason: RegExp }> = {};

function outcomes(run: NetSimRun): Record<string, Outcome> {
  return Object.fromEntries([...run.results.values()].map(r => [r.id, r.outcome]));
}

/** Failure context for assertions: the results that were not what was expected, with reasons. */
function why(run: NetSimRun): string {
  return (
    [...run.results.values()]
      .filter(r => r.outcome === 'error' || r.outcome === 'regressed')
      .map(r => `${r.id}: ${r.outcome}: ${r.reason}`)
      .join('\n') || 'no error/regressed result'
  );
}

function evidenceOf(r: CheckResult): Evidence[] {
  return r.evidence.filter((e): e is Evidence => typeof e !== 'string');
}

interface JUnitCase {
  id: string;
  outcome: Outcome;
  failure: boolean;
  skipped: boolean;
  error: boolean;
}

function junitCases(run: NetSimRun): JUnitCase[] {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: name => ['testsuite', 'testcase', 'property'].includes(name) });
  const out: JUnitCase[] = [];
  for (const xml of Object.values(run.junit)) {
    const doc = parser.parse(xml) as {
      testsuites?: { testsuite: { testcase?: Record<string, unknown>[] }[] };
      testsuite?: { testcase?: Record<string, unknown>[] }[];
    };
    const suites = doc.testsuites?.testsuite ?? doc.testsuite ?? [];
    for (const s of suites)
      for (const tc of s.testcase ?? []) {
        const props = testcaseContext(String(tc['system-out'] ?? ''));
        const prop = (n: string) => props[n] ?? '';
        out.push({ id: prop('feature-id'), outcome: prop('outcome') as Outcome, failure: 'failure' in tc, skipped: 'skipped' in tc, error: 'error' in tc });
      }
  }
  return out;
}

/** summary.md's matrix: every cell as { word, ids }. */
function matrixCells(md: string): { word: string; ids: string[] }[] {
  const section = md.split('## Connectivity matrix')[1]?.split('\n## ')[0] ?? '';
  const cells: { word: string; ids: string[] }[] = [];
  for (const line of section.split('\n').filter(l => l.startsWith('| **'))) {
    for (const cell of line.split(' | ').slice(1)) {
      const m = /^(.*?) <sub>(.*)<\/sub>/.exec(cell.trim());
      if (!m) continue;
      cells.push({ word: m[1].replace(/\*\*/g, '').replace(' ⚑', '').trim(), ids: m[2].split(', ').map(x => `net.${x.split(':')[0]}`) });
    }
  }
  return cells;
}

describe('networking and services suites against the simulated cluster', function () {
  this.timeout(15 * 60_000);
  let base: NetSimRun;
  let changed: NetSimRun;

  before(async () => {
    base = await runNetOnSim(loadProfile('default'), ['net.*'], { egressUrl: EGRESS_URL });
    changed = await runNetOnSim(withOverrides(loadProfile('default'), { limitations: { icmpEgress: false }, breaks: ['w2l'] }), ['net.*'], {
      egressUrl: EGRESS_URL,
    });
  });

  it('default profile: every networking feature has its documented outcome', () => {
    const want = { ...DOCUMENTED, ...Object.fromEntries(Object.entries(SIM_GAPS).map(([id, g]) => [id, g.outcome])) };
    expect(outcomes(base), why(base)).to.deep.equal(want);
    for (const [id, g] of Object.entries(SIM_GAPS)) expect(base.results.get(id)!.reason).to.match(g.reason);
    expect(base.exitCode).to.equal(0);
  });

  it('default profile: nothing the run created is left behind (the cross-node pod included)', () => {
    expect(base.leftover).to.deep.equal([]);
    expect(changed.leftover).to.deep.equal([]);
  });

  it('lifting the ICMP limitation turns net.icmp-egress into lifted', () => {
    const r = changed.results.get('net.icmp-egress')!;
    expect(r.outcome, why(changed)).to.equal('lifted');
    expect(r.reason).to.contain('documented as limited');
    expect(evidenceOf(r).some(e => /^ping -n 1 /.test(e.command) && /TTL=/i.test(e.stdout))).to.equal(true);
  });

  it('breaking w2l regresses net.w2l and the W → ClusterIP path to its Linux backend; every other feature keeps its outcome', () => {
    const before = outcomes(base);
    const after = outcomes(changed);
    const differing = Object.keys(after)
      .filter(id => after[id] !== before[id])
      .sort();
    // The Windows kube-proxy DNATs on the client's node: a W → ClusterIP → L connection is a
    // W → L packet, so the mixed Service's Linux backend is lost too, on the tries that pick it
    // (one in three backends; other checks share the round-robin, so with the shortened steady
    // period a run may or may not draw it: pod-to-clusterip is regressed or unchanged).
    const mayDiffer = ['net.pod-to-clusterip'];
    expect(
      differing.filter(id => !mayDiffer.includes(id)),
      why(changed),
    ).to.deep.equal(['net.icmp-egress', 'net.w2l']);
    expect(after['net.w2l']).to.equal('regressed');
    if (after['net.pod-to-clusterip'] === 'regressed') expect(changed.results.get('net.pod-to-clusterip')!.summary).to.match(/Timeout was reached|timed out/);
    else expect(after['net.pod-to-clusterip']).to.equal(before['net.pod-to-clusterip']);
    expect(
      Object.entries(after)
        .filter(([id, o]) => o === 'regressed' && !mayDiffer.includes(id))
        .map(([id]) => id),
    ).to.deep.equal(['net.w2l']);
    expect(changed.results.get('net.w2l')!.reason).to.match(/no pass within the .* warm-up/);
    expect(changed.exitCode).to.equal(1);
  });

  it('the local-NodePort limitation is seen on the Windows node and not on the Linux one', () => {
    const r = base.results.get('net.nodeport-local')!;
    expect(r.outcome).to.equal('limited');
    expect(r.node).to.match(/^win-/);
    expect(r.summary).to.match(/Windows node win-\S+: could not reach its own NodePort/);
    expect(r.summary).to.match(/control: the Linux node linux-\S+ reached its own NodePort/);
    const ev = evidenceOf(r);
    expect(ev.some(e => e.transport.includes('net-linux-host') && e.exitCode === 0)).to.equal(true);
    expect(
      ev.some(e => !e.transport.includes('net-linux-host') && e.command.includes('curl.exe') && e.exitCode !== 0),
      'a failed curl.exe on the Windows node',
    ).to.equal(true);
  });

  it("pod servers are reached by real connections from the probing pod's own address (/clientip)", () => {
    const clients: [string, string][] = [
      ['net.w2w-same-node', 'net-win'],
      ['net.w2w-cross-node', 'net-win'],
      ['net.w2l', 'net-win'],
      ['net.l2w', 'net-linux'],
    ];
    for (const [id, client] of clients) {
      const ip = base.podIPs.get(client);
      expect(ip, `IP of ${client}`).to.be.a('string');
      const e = evidenceOf(base.results.get(id)!).find(x => x.command.includes('/clientip'));
      expect(e, `${id} has /clientip evidence`).to.not.equal(undefined);
      expect(e!.transport).to.contain(`/${client}`);
      expect(clientIpOf(e!.stdout), id).to.equal(ip);
    }
  });

  it('each path check shows what was run and what came back', () => {
    const r = base.results.get('net.w2w-same-node')!;
    const first = evidenceOf(r)[0];
    expect(first.command).to.match(/^cmd \/c "curl\.exe http:\/\/\S+:8080\/hostname --connect-timeout 1 --fail"$/);
    expect(first.stdout.trim()).to.equal('net-win-peer');
    const l2w = evidenceOf(base.results.get('net.l2w')!)[0];
    expect(l2w.command).to.match(/^\/bin\/sh -c "nc -vz \S+ 8080 -w 1"$/);
    const ext = evidenceOf(base.results.get('net.nodeport-external')!)[0];
    expect(ext.transport).to.contain('wincheck host');
    expect(ext.command).to.match(/^GET http:\/\/127\.10\.\d+\.\d+:3\d{4}\/hostname$/);
  });

  it('the matrix in summary.md agrees with the JUnit testcases', () => {
    for (const run of [base, changed]) {
      const cases = junitCases(run);
      const byId = new Map(cases.map(c => [c.id, c]));
      for (const c of cases) {
        expect(c.failure, c.id).to.equal(c.outcome === 'regressed');
        expect(c.skipped, c.id).to.equal(c.outcome === 'n/a');
        expect(c.error, c.id).to.equal(c.outcome === 'error');
      }
      const cells = matrixCells(run.summaryMd);
      const inMatrix = cells.flatMap(c => c.ids).sort();
      expect(inMatrix).to.deep.equal([...NET_PATHS.keys()].filter(id => byId.has(id)).sort());
      for (const cell of cells)
        for (const id of cell.ids) {
          const tc = byId.get(id)!;
          if (cell.ids.length === 1) expect(cell.word, id).to.equal(CELL_WORD[tc.outcome]);
        }
    }
    expect(matrixCells(changed.summaryMd).find(c => c.ids.includes('net.w2l'))?.word).to.equal('failed');
    expect(matrixCells(changed.summaryMd).find(c => c.ids.includes('net.icmp-egress'))?.word).to.equal('ok (lifted)');
  });

  it('DSR off and no LoadBalancer provisioner: client IP limited (SNAT seen, Linux control keeps it), LB n/a', async () => {
    const p = loadProfile('default');
    const variant = { ...p, name: 'no-dsr-no-lb', network: { ...p.network, kubeProxyEnableDSR: false }, addons: { ...p.addons, loadBalancer: false } };
    const run = await runNetOnSim(variant, ['net.preserve-client-ip', 'net.preserve-destination', 'net.lb'], {});
    // preserve-destination needs a LoadBalancer address, which this variant cannot get: n/a.
    expect(outcomes(run), why(run)).to.deep.equal({ 'net.preserve-client-ip': 'limited', 'net.preserve-destination': 'n/a', 'net.lb': 'n/a' });
    expect(run.results.get('net.preserve-destination')!.reason).to.match(/no LoadBalancer provisioner acted on the Service within 5s/);
    expect(run.results.get('net.preserve-client-ip')!.summary).to.match(/SNAT by the node\), while the Linux control saw/);
    expect(run.results.get('net.preserve-destination')!.expectation.expected).to.equal('limited');
    expect(run.results.get('net.lb')!.reason).to.match(
      /no LoadBalancer provisioner acted on the Service within 5s \(service net-svc-lb: no ingress address, no event on it from any component, no finalizer\)/,
    );
    expect(run.exitCode).to.equal(0);
  });

  it('preserve-destination with DSR is read from netstat in a backend: the LoadBalancer VIP as the local address', () => {
    const r = base.results.get('net.preserve-destination')!;
    expect(r.outcome, why(base)).to.equal('supported');
    expect(r.summary).to.match(/holds a connection with local address 127\.200\.\d+\.\d+ \(the LoadBalancer address\)/);
    expect(evidenceOf(r).some(e => e.command.includes('netstat -an -p TCP') && /Active Connections/.test(e.stdout))).to.equal(true);
  });

  it('breaking pod-ip, dns-config and preserve-destination regresses exactly those three', async () => {
    const run = await runNetOnSim(withOverrides(loadProfile('default'), { breaks: ['pod-ip', 'dns-config', 'preserve-destination'] }), ['net.*'], {
      egressUrl: EGRESS_URL,
    });
    const before = outcomes(base);
    const after = outcomes(run);
    const differing = Object.keys(after)
      .filter(id => after[id] !== before[id])
      .sort();
    expect(differing, why(run)).to.deep.equal(['net.dns-config', 'net.pod-ip', 'net.preserve-destination']);
    for (const id of differing) expect(after[id], id).to.equal('regressed');
    expect(run.results.get('net.pod-ip')!.summary).to.match(/ipconfig in net-win\S* shows 127\.\S+, not its pod IP/);
    expect(run.results.get('net.dns-config')!.summary).to.contain('does not show the configured nameserver 1.1.1.1');
    expect(run.results.get('net.preserve-destination')!.summary).to.contain('(DNATed)');
    expect(run.leftover).to.deep.equal([]);
  });

  it('the dual-stack profile: net.dual-stack supported; net.ipv6-only n/a (only an IPv6-only cluster shows it)', async () => {
    const run = await runNetOnSim(loadProfile('dual-stack'), ['net.dual-stack', 'net.ipv6-only'], {});
    expect(run.results.get('net.dual-stack')!.expectation.expected).to.equal('supported');
    // the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): IPv6-only NETWORKING is not supported, but single-family Services on dual-stack
    // pods and nodes are; so on a dual-stack cluster the limitation cannot be observed.
    expect(run.results.get('net.ipv6-only')!.reason).to.contain('not IPv6-only');
    expect(outcomes(run), why(run)).to.deep.equal({ 'net.dual-stack': 'supported', 'net.ipv6-only': 'n/a' });
    expect(run.results.get('net.dual-stack')!.summary).to.match(/^W → W over IPv6 \(fd00:10:244:\d+::/);
  });

  it('Windows Server 2019: ClientIP session affinity is limited (the v1.22 intro table)', async () => {
    const run = await runNetOnSim(loadProfile('ws2019'), ['net.session-affinity', 'net.session-affinity-timeout'], {});
    expect(run.results.get('net.session-affinity')!.expectation.expected).to.equal('limited');
    expect(outcomes(run), why(run)).to.deep.equal({ 'net.session-affinity': 'limited', 'net.session-affinity-timeout': 'limited' });
    expect(run.results.get('net.session-affinity')!.summary).to.contain('affinity did not hold');
  });
});
