// The DirectX device plugin add-on: Windows nodes advertise microsoft.com/directx, and a container
// that limits one sees the GPU as upstream device_plugin.go checks it (dxdiag's DirectX 12, DDI
// Version 12, Vendor ID, and DIRECTX_GPU_Name in the env); breaks: directx-device gives it none.

import { expect } from 'chai';
import { exec, isReady, createPod, startFixture, testProfile, waitPod, WIN, type Fixture } from '../../support/runtime.ts';
import { nodeResources } from '../../../sim/nodes/nodeObject.ts';
import { nodeSpecs } from '../../../sim/nodes/nodeSpec.ts';

const SERVER = 'mcr.microsoft.com/windows/server:ltsc2022';
const DX = ['cmd.exe', '/c', 'dxdiag', '/t', 'dxdiag_output.txt', '&', 'type', 'dxdiag_output.txt'];

describe('sim: DirectX device plugin', () => {
  let f: Fixture;
  afterEach(async () => {
    await f?.stop();
  });

  it('Windows nodes advertise microsoft.com/directx with the add-on, not without', () => {
    const on = testProfile({ addons: { directxDevicePlugin: true } });
    const win = nodeSpecs(on).find(n => n.name === WIN)!;
    expect(nodeResources(on, win).allocatable['microsoft.com/directx']).to.equal('1');
    expect(nodeResources(testProfile(), win).allocatable['microsoft.com/directx']).to.equal(undefined);
    const lin = nodeSpecs(on).find(n => n.os === 'linux')!;
    expect(nodeResources(on, lin).allocatable['microsoft.com/directx']).to.equal(undefined);
  });

  for (const broken of [false, true])
    it(broken ? 'breaks: directx-device: the container runs without the GPU' : 'a container limiting one sees the GPU in dxdiag and its env', async () => {
      f = await startFixture(testProfile({ addons: { directxDevicePlugin: true }, ...(broken ? { breaks: ['directx-device'] } : {}) }));
      createPod(f.store, WIN, 'dx', {
        containers: [{ name: 'c', image: SERVER, args: ['powershell.exe', 'Start-Sleep', '3600'], resources: { limits: { 'microsoft.com/directx': '1' } } }],
      });
      await waitPod(f.store, 'dx', 'Ready', isReady);
      const out = (await exec(f.runtime, 'dx', DX)).stdout;
      expect(out).to.contain('DirectX Version: DirectX 12');
      const env = await exec(f.runtime, 'dx', ['cmd.exe', '/c', 'set', 'DIRECTX_GPU_Name']);
      if (broken) {
        expect(out).not.to.contain('Vendor ID: 0x');
        expect(env.stdout).not.to.contain('DIRECTX_GPU_Name=');
      } else {
        expect(out).to.contain('DDI Version: 12').and.to.contain('Vendor ID: 0x10DE');
        expect(env.stdout).to.contain('DIRECTX_GPU_Name=NVIDIA Tesla T4');
      }
    });
});
