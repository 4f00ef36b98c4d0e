// netstat in a Windows container (and busybox netstat on Linux), over a fake socket table.

import { expect } from 'chai';
import type { SocketEntry } from '../../../../sim/network/types.ts';
import type { ShellHost } from '../../../../sim/runtime/shell/types.ts';
import { FakeNet, linuxHost, run, winHost } from '../../../support/fakeShellHost.ts';

const TABLE: SocketEntry[] = [
  { proto: 'TCP', local: { address: '0.0.0.0', port: 8080 }, state: 'LISTENING' },
  { proto: 'TCP', local: { address: '10.0.0.50', port: 8080 }, foreign: { address: '192.168.1.9', port: 51234 }, state: 'ESTABLISHED' },
  { proto: 'UDP', local: { address: '0.0.0.0', port: 8081 } },
];

/** A host whose twin has a socket table for its own address only. */
function withTable(make: (over: Partial<ShellHost>) => ShellHost, bins: string[]): ShellHost {
  const base = make({});
  const net = Object.assign(Object.create(FakeNet.prototype) as FakeNet, base.net, {
    socketTable: (address: string) => (address === base.endpoint.address ? TABLE : []),
  });
  return { ...base, net, hasBinary: n => bins.includes(n) || base.hasBinary(n) };
}

describe('sim shell: netstat', () => {
  it('netstat -an: Windows layout, CRLF, listeners on both families, connections as the twin reports them', async () => {
    const r = await run(['cmd', '/c', 'netstat -an'], withTable(winHost, ['netstat.exe']));
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal(
      [
        '',
        'Active Connections',
        '',
        '  Proto  Local Address          Foreign Address        State',
        '  TCP    0.0.0.0:8080           0.0.0.0:0              LISTENING',
        '  TCP    10.0.0.50:8080         192.168.1.9:51234      ESTABLISHED',
        '  TCP    [::]:8080              [::]:0                 LISTENING',
        '  UDP    0.0.0.0:8081           *:*                    ',
        '  UDP    [::]:8081              *:*                    ',
        '',
      ].join('\r\n'),
    );
  });

  it('netstat -ano adds the PID column; -p TCP keeps IPv4 TCP only; without -a no listeners', async () => {
    const host = withTable(winHost, ['netstat.exe']);
    const o = await run(['netstat', '-ano'], host);
    expect(o.stdout).to.contain('  Proto  Local Address          Foreign Address        State           PID\r\n');
    expect(o.stdout).to.match(/\r\n {2}TCP {4}0\.0\.0\.0:8080 {11}0\.0\.0\.0:0 {14}LISTENING {7}\d+\r\n/);
    const p = await run(['cmd', '/c', 'netstat -an -p TCP'], host);
    expect(p.stdout.split('\r\n').filter(l => l.startsWith('  TCP') || l.startsWith('  UDP'))).to.deep.equal([
      '  TCP    0.0.0.0:8080           0.0.0.0:0              LISTENING',
      '  TCP    10.0.0.50:8080         192.168.1.9:51234      ESTABLISHED',
    ]);
    const n = await run(['netstat', '-n'], host);
    expect(n.stdout).to.not.contain('LISTENING');
    expect(n.stdout).to.contain('ESTABLISHED');
  });

  it('a bad option prints the usage and exits 1; an image without netstat.exe is 9009', async () => {
    const bad = await run(['netstat', '-Q'], withTable(winHost, ['netstat.exe']));
    expect(bad.code).to.equal(1);
    expect(bad.stdout).to.contain('NETSTAT [-a]');
    const none = await run(['cmd', '/c', 'netstat -an'], winHost());
    expect(none.code).to.equal(9009);
  });

  it('busybox netstat -an on Linux: LF, LISTEN, 0.0.0.0:*', async () => {
    const r = await run(['netstat', '-an'], withTable(linuxHost, ['netstat']));
    expect(r.code).to.equal(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).to.equal('Active Internet connections (servers and established)');
    expect(lines).to.include('tcp        0      0 0.0.0.0:8080            0.0.0.0:*               LISTEN      ');
    expect(lines).to.include('tcp6       0      0 :::8080                 :::*                    LISTEN      ');
  });
});
