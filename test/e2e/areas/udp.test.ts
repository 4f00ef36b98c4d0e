// net.udp-pod-to-pod and net.udp-node-to-pod against the sim: supported on the default profile
// (agnhost's /dial over UDP and the node's UdpClient both get the pod's name back, the TCP controls
// answering); with udp broken, both regressed while their TCP controls still answer.

import { expect } from 'chai';
import { FAST_NET, runOnSim } from '../../support/simRun.ts';

const IDS = ['net.udp-pod-to-pod', 'net.udp-node-to-pod'];

describe('UDP to a Windows pod against the sim', function () {
  this.timeout(3 * 60_000);

  it('default profile supported; udp broken: regressed, the TCP controls answering', async () => {
    const [ok, broken] = await Promise.all([runOnSim(IDS, { timeouts: FAST_NET }), runOnSim(IDS, { breaks: ['udp'], timeouts: FAST_NET })]);
    for (const id of IDS) {
      const r = ok.results.get(id)!;
      expect(r.outcome, `${id}: ${r.reason} / ${r.summary}`).to.equal('supported');
      expect(r.summary).to.match(/net-win-peer answered/);
      expect(r.node).to.match(/^win-/);
      const b = broken.results.get(id)!;
      expect(b.outcome, `${id}: ${b.reason} / ${b.summary}`).to.equal('regressed');
      expect(b.summary).to.match(/no pass within the .* warm-up/);
      expect(b.summary).to.match(/over TCP the same path answers/);
      expect(b.reason).to.match(/UDP datagrams by pod IP/);
    }
  });
});
