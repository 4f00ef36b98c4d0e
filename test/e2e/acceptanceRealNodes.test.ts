// The whole catalog on the real-node-like profiles (sim/profiles/builtin/{aks,eks,gke,openshift,
// kubeadm}.yaml, modelled on test/data/real-nodes/), compared feature by feature with the verdict
// the docs give for that cluster shape. Nothing is broken and no limitation is lifted on these
// profiles, so any regressed, lifted or error outcome is the harness's own fault (placement,
// capacity, an expectation that ignores the version): each profile asserts there is none, but
// for a verdict the docs give as regressed for the shape itself (EKS's node without reservations).

import { expect } from 'chai';
import { loadCatalog } from '../../lib/catalog/registry.ts';
import type { CheckResult, Outcome } from '../../lib/catalog/types.ts';
import { FAST_NET, runOnSim, type SimRun } from '../support/simRun.ts';

const EGRESS = 'http://egress.wincheck.test/';

interface Verdict {
  outcome: Outcome;
  why: string;
}

interface RealProfile {
  name: string;
  /** The docs' verdict for the notable features of this shape, and why. */
  verdicts: Record<string, Verdict>;
}

const PROFILES: RealProfile[] = [
  {
    name: 'aks',
    verdicts: {
      'node.runtime': { outcome: 'supported', why: 'every Windows node runs containerd >= 1.6 (1.7.17+azure, 1.6.14+azure)' },
      'iso.hostprocess': { outcome: 'supported', why: 'Kubernetes 1.28 >= 1.26 (GA) with containerd >= 1.6' },
      'sched.pod-os-field': { outcome: 'supported', why: 'spec.os is GA from 1.25' },
      'work.env-colon-name': { outcome: 'limited', why: "1.28 < 1.32: env names with ':' are rejected" },
      'iso.hyperv-runtimeclass': { outcome: 'n/a', why: 'AKS installs no runhcs-wcow-hypervisor RuntimeClass' },
      'net.preserve-destination': { outcome: 'n/a', why: 'kube-proxy is a Windows service on AKS: whether it runs with DSR cannot be discovered' },
      'net.dual-stack': { outcome: 'n/a', why: 'the cluster is single-stack' },
      'node.os-supported': { outcome: 'supported', why: 'Windows Server 2019 and 2022 are supported by 1.28' },
      'node.version-skew': { outcome: 'supported', why: 'kubelet v1.25.4 is within the skew policy of a v1.28 control plane (n-3 from 1.28)' },
      'res.node-reserved': { outcome: 'supported', why: 'allocatable is below capacity on every Windows node' },
      'work.deployment': {
        outcome: 'supported',
        why: 'two Windows nodes take pods (one cordoned node does not): 30 pods a node is enough when fixtures are placed in waves',
      },
    },
  },
  {
    name: 'eks',
    verdicts: {
      'node.runtime': { outcome: 'supported', why: 'containerd 1.6.28 on every Windows node' },
      'iso.hostprocess': { outcome: 'supported', why: 'Kubernetes 1.29 >= 1.26 with containerd >= 1.6' },
      'sched.pod-os-field': { outcome: 'supported', why: 'spec.os is GA from 1.25' },
      'work.env-colon-name': { outcome: 'limited', why: "1.29 < 1.32: env names with ':' are rejected" },
      'sched.taint-toleration': { outcome: 'n/a', why: 'EKS does not taint Windows nodes: supported where tainted, else n/a' },
      'net.session-affinity': { outcome: 'supported', why: 'Windows Server 2022 (20348 >= 19551)' },
      'iso.hyperv-runtimeclass': { outcome: 'n/a', why: 'no runhcs-wcow-hypervisor RuntimeClass' },
      'net.preserve-client-ip': { outcome: 'n/a', why: 'kube-proxy is a Windows service: DSR cannot be discovered' },
      'work.deployment': { outcome: 'supported', why: 'two Windows nodes (8 and 2 vCPUs) take the replicas' },
      'res.node-reserved': {
        outcome: 'regressed',
        why: 'ip-192-168-33-201 reports allocatable equal to capacity, as the EKS node of real-nodes/09b did: nothing is reserved for the OS, kubelet and runtime',
      },
    },
  },
  {
    name: 'gke',
    verdicts: {
      'sched.taint-toleration': { outcome: 'supported', why: 'GKE taints Windows nodes node.kubernetes.io/os=windows:NoSchedule' },
      'iso.hostprocess': { outcome: 'supported', why: 'Kubernetes 1.30 >= 1.26 with containerd 1.7' },
      'node.runtime': { outcome: 'supported', why: 'containerd 1.7.22-gke.0' },
      'work.env-colon-name': { outcome: 'limited', why: "1.30 < 1.32: env names with ':' are rejected" },
      'work.deployment': { outcome: 'supported', why: 'two 2-vCPU Windows nodes take the replicas' },
      'net.w2w-cross-node': { outcome: 'supported', why: 'two Windows nodes on l2bridge' },
      'node.services': { outcome: 'supported', why: 'HostProcess node access on each node, whose names share their first 50 characters' },
    },
  },
  {
    name: 'openshift',
    verdicts: {
      'sched.pod-os-field': { outcome: 'supported', why: 'spec.os is GA from 1.25' },
      'iso.hostprocess': { outcome: 'supported', why: 'HostProcess is beta and on by default from 1.23 (GA 1.26); containerd://1.19 reads as >= 1.6' },
      'node.runtime': { outcome: 'supported', why: 'containerd://1.19 as WMCO reports it' },
      'sched.taint-toleration': { outcome: 'supported', why: 'WMCO taints Windows nodes os=Windows:NoSchedule (capital W)' },
      'work.env-colon-name': { outcome: 'limited', why: "1.25 < 1.32: env names with ':' are rejected" },
      'node.version-skew': { outcome: 'supported', why: 'kubelet v1.25.0 under a v1.25.11 control plane' },
      'iso.hyperv-runtimeclass': { outcome: 'n/a', why: 'no runhcs-wcow-hypervisor RuntimeClass' },
      'net.dual-stack': { outcome: 'n/a', why: 'the cluster is single-stack' },
      'res.limits': { outcome: 'supported', why: "the seed's limits (cpu 2) are sized to the Windows nodes' 1500m allocatable: the pods run" },
    },
  },
  {
    name: 'kubeadm',
    verdicts: {
      'node.runtime': { outcome: 'supported', why: 'before 1.24 dockershim runs Docker: docker 20.10.9 and containerd 1.6.21 are both supported on 1.23' },
      'sched.pod-os-field': { outcome: 'limited', why: 'IdentifyPodOS is alpha (off) in 1.23: the API server drops spec.os' },
      'iso.hostprocess': { outcome: 'supported', why: 'HostProcess is beta, on by default in 1.23, on the containerd 1.6.21 node' },
      'net.session-affinity': { outcome: 'limited', why: 'Windows Server 2019 (17763 < 19551)' },
      'work.env-colon-name': { outcome: 'limited', why: "1.23 < 1.32: env names with ':' are rejected" },
      'sched.os-selector-beta': { outcome: 'supported', why: 'the kubelet sets beta.kubernetes.io/os' },
      'sched.taint-toleration': { outcome: 'supported', why: 'the containerd node is tainted os=windows' },
      'node.os-supported': { outcome: 'supported', why: 'Windows Server 2019 is supported by 1.23' },
      'res.node-reserved': { outcome: 'supported', why: 'allocatable is below capacity on both Windows nodes' },
      'iso.process': { outcome: 'supported', why: 'images of the node build run on the node without the windows-build label too' },
      'sec.run-as-nonroot': {
        outcome: 'supported',
        why: 'its pods are pinned to the target node, the containerd 1.6.21 one, which ignores runAsUser (on the Docker node dockershim passes it as a Windows user and the pod fails with 0x52e: https://github.com/elastic/helm-charts/issues/931)',
      },
    },
  },
];

/** "work.deployment [ltsc2022]" → "work.deployment": on several builds a feature has one result per build. */
const featureOf = (resultId: string) => resultId.replace(/ \[[^\]]+\]$/, '');
const resultsOf = (run: SimRun, id: string) => [...run.results.values()].filter(r => featureOf(r.id) === id);

describe('acceptance: the whole catalog on real-node-like profiles', function () {
  this.timeout(1_200_000);

  let ids: string[];
  before(async () => {
    ids = (await loadCatalog()).map(f => f.id);
  });

  for (const p of PROFILES) {
    describe(p.name, () => {
      let run: SimRun;
      // One profile at a time: parallel whole-catalog runs on a busy 2-core machine starve the API
      // servers. Rollouts are bounded like pod starts (the sim starts pods in well under a second).
      before(async () => {
        run = await runOnSim(ids, { base: p.name, egressUrl: EGRESS, timeouts: { ...FAST_NET, rollout: 90_000 } });
      });
      const list = (rs: CheckResult[]) => rs.map(r => `${r.id}: ${r.outcome}: ${r.summary}`).join('\n');

      for (const [id, v] of Object.entries(p.verdicts)) {
        it(`${id} is ${v.outcome}: ${v.why}`, () => {
          const rs = resultsOf(run, id);
          expect(rs, `${id} has no result`).to.not.deep.equal([]);
          for (const r of rs) expect(r.outcome, `${r.id}: ${r.summary} | ${r.reason ?? ''}`).to.equal(v.outcome);
        });
      }
      it('has a result for every feature of the catalog (nothing lost)', () => {
        expect(ids.filter(id => !resultsOf(run, id).length)).to.deep.equal([]);
      });
      it(`no feature regressed but those the docs call regressed for this shape: nothing is broken on this profile`, () => {
        const bad = [...run.results.values()].filter(r => r.outcome === 'regressed' && p.verdicts[featureOf(r.id)]?.outcome !== 'regressed');
        expect(bad, list(bad)).to.deep.equal([]);
      });
      it(`no feature is lifted: every documented limitation holds on this profile`, () => {
        const bad = [...run.results.values()].filter(r => r.outcome === 'lifted');
        expect(bad, list(bad)).to.deep.equal([]);
      });
      it(`no error: the harness's own means (placement, capacity, pulls, transport) never fail here`, () => {
        const bad = [...run.results.values()].filter(r => r.outcome === 'error');
        expect(bad, list(bad)).to.deep.equal([]);
      });
      it('leaves nothing labelled with the run behind', () => {
        expect(run.leftover).to.deep.equal([]);
      });
    });
  }
});
