// Client certificates the sim hands out beside its kubeconfig: CN the user, O each group, signed by
// the CA the API server trusts for client auth; the kubeconfig written with them names them by
// relative path, and the API server takes them as that user (kubectl auth whoami).

import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { AuthenticationV1Api, KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { startSim, type SimCluster } from '../../../sim/index.ts';
import { fileNameFor } from '../../../sim/api/clientCertificates.ts';
import { kubectl, kubectlBinaries } from '../../support/simApi.ts';

describe('sim client certificates', function () {
  this.timeout(120_000);
  let sim: SimCluster;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wincheck-certs-'));
    sim = await startSim({
      kubeconfigOut: join(dir, 'admin.kubeconfig'),
      clientCertificates: [
        { user: 'jane', groups: ['devs', 'ops'] },
        { user: 'system:node:win-1', groups: ['system:nodes'] },
      ],
    });
  });
  after(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes ca.crt, <user>.crt, <user>.key and <user>.kubeconfig (relative paths) beside the kubeconfig, all 0600', () => {
    expect(sim.clientCertificateFiles.map(f => f.kubeconfig)).to.deep.equal([join(dir, 'jane.kubeconfig'), join(dir, 'system-node-win-1.kubeconfig')]);
    const kc = parse(readFileSync(join(dir, 'jane.kubeconfig'), 'utf8')) as {
      users: { user: Record<string, string> }[];
      clusters: { cluster: Record<string, string> }[];
    };
    expect(kc.users[0].user).to.deep.equal({ 'client-certificate': 'jane.crt', 'client-key': 'jane.key' });
    expect(kc.clusters[0].cluster).to.deep.equal({ server: sim.server, 'certificate-authority': 'ca.crt' });
    for (const f of ['ca.crt', 'jane.crt', 'jane.key', 'jane.kubeconfig']) expect(statSync(join(dir, f)).mode & 0o777, f).to.equal(0o600);
    const cert = new X509Certificate(readFileSync(join(dir, 'jane.crt')));
    expect(cert.subject.split('\n')).to.deep.equal(['CN=jane', 'O=devs', 'O=ops']);
    expect(cert.checkIssued(new X509Certificate(readFileSync(join(dir, 'ca.crt'))))).to.equal(true);
    expect(fileNameFor('system:node:win-1')).to.equal('system-node-win-1');
  });

  it('the API server takes the certificate as its CN and Os (client-node, from the written kubeconfig)', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(join(dir, 'jane.kubeconfig'));
    const r = await kc
      .makeApiClient(AuthenticationV1Api)
      .createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    expect(r.status?.userInfo).to.deep.include({ username: 'jane', groups: ['devs', 'ops', 'system:authenticated'] });
  });

  it('kubectl auth whoami with the written kubeconfig', async function () {
    const bin = kubectlBinaries().get('1.33') ?? [...kubectlBinaries().values()].pop();
    if (!bin) this.skip();
    const who = await kubectl(bin, join(dir, 'system-node-win-1.kubeconfig'), ['auth', 'whoami', '-o', 'json']);
    expect(who.code, who.stderr).to.equal(0);
    expect(JSON.parse(who.stdout).status.userInfo).to.deep.include({ username: 'system:node:win-1', groups: ['system:nodes', 'system:authenticated'] });
  });
});
