// NetworkPolicy in the network twin: enforced where the profile's engine enforces it (Calico,
// Antrea, Azure NPM on 2022+), not with flannel, not under the break network-policy; deny,
// allow by pod label, by namespace label, by port; Service backends filtered after DNAT.

import { expect } from 'chai';
import { Cluster, eventually, fetchVia, makeProfile } from '../../support/simNetwork.ts';
import { enforcesOn, NETPOL_BUCKET, policyEngineOf } from '../../../sim/network/netpol.ts';
import type { KubeObject } from '../../../sim/api/store.ts';
import type { Profile } from '../../../sim/profiles/types.ts';
import type { Endpoint } from '../../../sim/network/types.ts';

const calico = (over: Partial<Profile> = {}) => makeProfile({ network: { mode: 'l2bridge', cni: 'calico' }, ...over });

function policy(c: Cluster, namespace: string, name: string, spec: object): void {
  c.store.create(NETPOL_BUCKET, { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name, namespace }, spec } as KubeObject);
}

/** 'ok' when GET /hostname answers, else the error code (a dropped connection times out). */
async function reach(c: Cluster, from: Endpoint, host: string, port = 8080): Promise<string> {
  try {
    await fetchVia(c.net, from, host, port, '/hostname', 300);
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

describe('sim network: NetworkPolicy', () => {
  let c: Cluster;
  afterEach(async () => {
    await c?.stop();
  });

  it('takes the engine from the CNI or the profile, and enforces per node', () => {
    expect(policyEngineOf(makeProfile())).to.equal('none');
    expect(policyEngineOf(calico())).to.equal('calico');
    const aks = makeProfile({ network: { mode: 'l2bridge', cni: 'azure-cni', networkPolicy: 'azure-npm' } });
    expect(policyEngineOf(aks)).to.equal('azure-npm');
    // Azure NPM on Windows: Windows Server 2022 and later only.
    expect(
      enforcesOn(
        aks,
        aks.nodes.find(n => n.name === 'win-2022'),
      ),
    ).to.equal(true);
    expect(
      enforcesOn(
        aks,
        aks.nodes.find(n => n.name === 'win-2019'),
      ),
    ).to.equal(false);
    const broken = calico({ breaks: ['network-policy'] });
    expect(
      enforcesOn(
        broken,
        broken.nodes.find(n => n.name === 'win-2022'),
      ),
    ).to.equal(false);
    expect(
      enforcesOn(
        broken,
        broken.nodes.find(n => n.name === 'lin-1'),
      ),
    ).to.equal(true);
  });

  it('calico: default-deny, then allow by pod label, by namespace label and by port', async () => {
    c = await Cluster.start(calico());
    c.store.mutate('namespaces', undefined, 'web', ns => {
      ns.metadata!.labels = { team: 'web' };
    });
    const server = await c.netexecPod('default', 'srv', 'win-2022', 8080, { app: 'srv' });
    await c.net.listen(server.address, 8081, s => s.end('HTTP/1.0 200 OK\r\n\r\nother'));
    const plain = c.pod('default', 'plain', 'win-2022');
    const labelled = c.pod('default', 'labelled', 'lin-1', { role: 'allowed' });
    const other = c.pod('web', 'other', 'lin-1');
    expect(await reach(c, plain.endpoint, server.address)).to.equal('ok');

    policy(c, 'default', 'deny', { podSelector: { matchLabels: { app: 'srv' } }, policyTypes: ['Ingress'] });
    expect(await reach(c, plain.endpoint, server.address)).to.equal('ETIMEDOUT');
    expect(await reach(c, labelled.endpoint, server.address)).to.equal('ETIMEDOUT');
    expect(await reach(c, other.endpoint, server.address)).to.equal('ETIMEDOUT');
    // The node the pod runs on is always allowed (kubelet probes).
    expect(await reach(c, c.net.nodeEndpoint('win-2022'), server.address)).to.equal('ok');

    policy(c, 'default', 'allow-label', {
      podSelector: { matchLabels: { app: 'srv' } },
      ingress: [{ from: [{ podSelector: { matchLabels: { role: 'allowed' } } }], ports: [{ protocol: 'TCP', port: 8080 }] }],
    });
    policy(c, 'default', 'allow-ns', {
      podSelector: { matchLabels: { app: 'srv' } },
      ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'web' } } }], ports: [{ port: 8080 }] }],
    });
    expect(await reach(c, labelled.endpoint, server.address)).to.equal('ok');
    expect(await reach(c, other.endpoint, server.address)).to.equal('ok');
    expect(await reach(c, plain.endpoint, server.address)).to.equal('ETIMEDOUT');
    // Port 8081 is allowed by no rule.
    expect(await reach(c, labelled.endpoint, server.address, 8081)).to.equal('ETIMEDOUT');

    c.store.delete(NETPOL_BUCKET, 'default', 'deny');
    c.store.delete(NETPOL_BUCKET, 'default', 'allow-label');
    c.store.delete(NETPOL_BUCKET, 'default', 'allow-ns');
    expect(await reach(c, plain.endpoint, server.address)).to.equal('ok');
  });

  it('filters a Service backend after DNAT', async () => {
    c = await Cluster.start(calico());
    const server = await c.netexecPod('default', 'srv', 'win-2022', 8080, { app: 'srv' });
    const svc = c.service('default', 'srv', { selector: { app: 'srv' }, ports: [{ port: 80, targetPort: 8080 }] });
    c.slice('default', 'srv', [server]);
    const client = c.pod('default', 'client', 'lin-1');
    // The proxy's listener comes up with the next reconcile.
    await eventually(async () => expect(await reach(c, client.endpoint, svc.spec!.clusterIP!, 80)).to.equal('ok'));
    policy(c, 'default', 'deny', { podSelector: {}, policyTypes: ['Ingress'] });
    expect(await reach(c, client.endpoint, svc.spec!.clusterIP!, 80)).to.equal('ETIMEDOUT');
  });

  it('flannel, and calico under the break network-policy: the policy has no effect on Windows pods', async () => {
    for (const profile of [makeProfile(), calico({ breaks: ['network-policy'] })]) {
      c = await Cluster.start(profile);
      const server = await c.netexecPod('default', 'srv', 'win-2022', 8080, { app: 'srv' });
      const client = c.pod('default', 'client', 'lin-1');
      policy(c, 'default', 'deny', { podSelector: {}, policyTypes: ['Ingress'] });
      expect(await reach(c, client.endpoint, server.address), profile.network.cni).to.equal('ok');
      await c.stop();
    }
  });

  it('egress: a selected source reaches only what its rules allow', async () => {
    c = await Cluster.start(calico());
    const a = await c.netexecPod('default', 'a', 'lin-1', 8080, { app: 'a' });
    const b = await c.netexecPod('default', 'b', 'lin-1', 8080, { app: 'b' });
    const client = c.pod('default', 'client', 'win-2022', { app: 'client' });
    policy(c, 'default', 'egress', {
      podSelector: { matchLabels: { app: 'client' } },
      policyTypes: ['Egress'],
      egress: [{ to: [{ podSelector: { matchLabels: { app: 'a' } } }] }],
    });
    expect(await reach(c, client.endpoint, a.address)).to.equal('ok');
    expect(await reach(c, client.endpoint, b.address)).to.equal('ETIMEDOUT');
  });
});
