// res.directx-device against the sim: n/a on the default profile (no DirectX device plugin, so no
// Windows node advertises microsoft.com/directx); supported on a profile running the plugin
// (addons.directxDevicePlugin: the DaemonSet in kube-system, the resource on every Windows node);
// regressed there with directx-device broken (the plugin allocates nothing), naming what is missing.

import { expect } from 'chai';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'res.directx-device';

describe('DirectX device plugin against the sim', function () {
  this.timeout(3 * 60_000);

  it('default n/a; with the plugin supported; plugin broken: regressed', async () => {
    const [none, on, broken] = await Promise.all([
      runOnSim([ID]),
      runOnSim([ID], { addons: { directxDevicePlugin: true } }),
      runOnSim([ID], { addons: { directxDevicePlugin: true }, breaks: ['directx-device'] }),
    ]);
    const n = none.results.get(ID)!;
    expect(n.outcome).to.equal('n/a');
    expect(n.reason).to.contain('no Ready Windows node advertises microsoft.com/directx');
    const r = on.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error ?? ''}`).to.equal('supported');
    expect(JSON.stringify(r.evidence)).to.contain('DDI Version: 12').and.to.contain('DIRECTX_GPU_Name=');
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.summary).to.match(/got no DirectX device: missing DDI Version: 12, Vendor ID: 0x, DIRECTX_GPU_Name= in the env/);
  });
});
