// res.directx-device: n/a (with why) unless a Ready Windows node advertises microsoft.com/directx,
// supported (citing upstream device_plugin.go) where one does; the device lines of upstream's check.

import { expect } from 'chai';
import { directxExpectation, missingDeviceLines } from '../../../../lib/catalog/res/directxDevice.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

const gpu = (n: ReturnType<typeof winNode>, count: string) => ({ ...n, allocatable: { ...n.allocatable, 'microsoft.com/directx': count } });

describe('res.directx-device', () => {
  it('n/a without a Windows node advertising microsoft.com/directx, saying why', () => {
    const e = directxExpectation(cluster({ nodes: [linuxNode('l'), winNode('w')] }));
    expect(e.expected).to.equal('n/a');
    expect(e.reason).to.contain('no Ready Windows node advertises microsoft.com/directx');
    expect(directxExpectation(cluster({ nodes: [linuxNode('l'), gpu(winNode('w'), '0')] })).expected).to.equal('n/a');
    expect(directxExpectation(cluster({ nodes: [linuxNode('l'), { ...gpu(winNode('w'), '1'), ready: false }] })).expected).to.equal('n/a');
  });

  it('supported where one does, citing upstream device_plugin.go by its spec', () => {
    const e = directxExpectation(cluster({ nodes: [linuxNode('l'), winNode('w1'), gpu(winNode('w2'), '2')] }));
    expect(e.expected).to.equal('supported');
    expect(e.reason).to.contain('w2 (microsoft.com/directx 2)');
    expect(JSON.stringify(e.source)).to.contain('device_plugin.go').and.to.contain('should be able to create a functioning device plugin for Windows');
  });

  it("wants upstream's DDI Version 12 and a display device's Vendor ID", () => {
    expect(missingDeviceLines('   DirectX Version: DirectX 12\r\n           Vendor ID: 0x10DE\r\n         DDI Version: 12\r\n')).to.deep.equal([]);
    expect(missingDeviceLines('   DirectX Version: DirectX 12\r\n')).to.deep.equal(['DDI Version: 12', 'Vendor ID: 0x']);
  });
});
