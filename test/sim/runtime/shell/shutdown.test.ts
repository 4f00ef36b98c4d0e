// shutdown.exe as the sim's tool answers it: on a node's host (HostProcess, SSH) it schedules the
// node's restart or power-off and exits 0 silently; in an ordinary container "Access is denied.(5)".

import { expect } from 'chai';
import { run, winHost } from '../../../support/fakeShellHost.ts';

const withShutdown = (over: Parameters<typeof winHost>[0] = {}) => {
  const h = winHost(over);
  const own = h.hasBinary.bind(h);
  return { ...h, hasBinary: (n: string) => n === 'shutdown.exe' || own(n) };
};

describe('sim shell: shutdown.exe', () => {
  it('on the host: -r -t 30 (and /r /t 30) asks the node for a restart in 30 s, prints nothing, exits 0', async () => {
    const asked: { reboot: boolean; delaySeconds: number }[] = [];
    const node = {
      services: () => [],
      hnsNetworks: () => [],
      computeProcesses: () => [],
      shutdown: (o: { reboot: boolean; delaySeconds: number }) => void asked.push(o),
    };
    const r = await run(['shutdown.exe', '-r', '-t', '30'], withShutdown({ node }));
    expect([r.code, r.stdout, r.stderr]).to.deep.equal([0, '', '']);
    expect((await run(['shutdown', '/s', '/t', '0'], withShutdown({ node }))).code).to.equal(0);
    expect(asked).to.deep.equal([
      { reboot: true, delaySeconds: 30 },
      { reboot: false, delaySeconds: 0 },
    ]);
  });

  it('in an ordinary container: Access is denied.(5), exit 5; no -r or -s: usage, exit 87', async () => {
    const denied = await run(['shutdown.exe', '-r', '-t', '30'], withShutdown());
    expect(denied.code).to.equal(5);
    expect(denied.stderr).to.contain('Access is denied.(5)');
    expect((await run(['shutdown.exe', '-t', '30'], withShutdown())).code).to.equal(87);
  });
});
