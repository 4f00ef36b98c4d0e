import { expect } from 'chai';
import { run, winHost, linuxHost, startHttp, nodeViews } from '../../../support/fakeShellHost.ts';

describe('sim shell: DNS, ping, ipconfig, sc, agnhost, nc', () => {
  let srv: { port: number; close: () => Promise<void> };
  before(async () => {
    srv = await startHttp();
  });
  after(async () => {
    await srv.close();
  });
  const names = { 'kubernetes.default.svc.cluster.local': ['10.96.0.1'], 'www.example.com': ['10.0.0.200', '10.0.0.201'] };

  it("Windows nslookup: can't find goes to stderr and exits 0", async () => {
    const r = await run(['nslookup', 'nope.example.com'], winHost({}, { names }));
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('Server:  UnKnown\r\nAddress:  10.96.0.10\r\n\r\n');
    expect(r.stderr).to.equal("*** UnKnown can't find nope.example.com: Non-existent domain\r\n");
  });

  it('Windows nslookup: an answer from the cluster zone', async () => {
    const r = await run(['nslookup', 'kubernetes.default.svc.cluster.local'], winHost({}, { names }));
    expect(r.stdout).to.equal('Server:  UnKnown\r\nAddress:  10.96.0.10\r\n\r\nName:    kubernetes.default.svc.cluster.local\r\nAddress:  10.96.0.1\r\n\r\n');
    expect(r.stderr).to.equal('');
  });

  it('Windows nslookup: "Non-authoritative answer:" on stderr and Addresses: for several', async () => {
    const r = await run(['nslookup', 'www.example.com'], winHost({}, { names }));
    expect(r.stderr).to.equal('Non-authoritative answer:\r\n');
    expect(r.stdout).to.include('Addresses:  10.0.0.200\r\n          10.0.0.201\r\n');
  });

  it('Windows nslookup: server failure', async () => {
    const r = await run(['nslookup', 'bad.example.com'], winHost({}, { servfail: ['bad.example.com'] }));
    expect(r.stderr).to.equal("*** UnKnown can't find bad.example.com: Server failed\r\n");
  });

  it('busybox nslookup on Linux: NXDOMAIN exits 1', async () => {
    const r = await run(['nslookup', 'nope.example.com'], linuxHost({}, { names }));
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include("** server can't find");
  });

  it('ping -n 1: a reply has TTL', async () => {
    const r = await run(['ping', '-n', '1', '10.244.1.9'], winHost({}, { pingable: ['10.244.1.9'] }));
    expect(r.stdout).to.include('Reply from 10.244.1.9: bytes=32 time<1ms TTL=128\r\n');
    expect(r.stdout).to.include('Packets: Sent = 1, Received = 1, Lost = 0 (0% loss),');
    expect(r.code).to.equal(0);
  });

  it('ping -n 1 -w 100: no reply is "Request timed out."', async () => {
    const r = await run(['ping', '-n', '1', '-w', '100', '10.0.0.200'], winHost());
    expect(r.stdout).to.include('Request timed out.\r\n');
    expect(r.stdout).not.to.include('TTL');
  });

  it('ipconfig /all shows host name, suffixes and DNS servers', async () => {
    const r = await run(
      ['ipconfig', '/all'],
      winHost({ dns: { nameservers: ['1.1.1.1', '10.96.0.10'], searches: ['cluster.local', 'default.svc.cluster.local'], ndots: 5 } }),
    );
    expect(r.stdout).to.include('   Host Name . . . . . . . . . . . . : iis-7c7757c8bf-24fh4\r\n');
    expect(r.stdout).to.include('   DNS Suffix Search List. . . . . . : cluster.local\r\n                                       default.svc.cluster.local\r\n');
    expect(r.stdout).to.include('   DNS Servers . . . . . . . . . . . : 1.1.1.1\r\n                                       10.96.0.10\r\n');
    expect(r.stdout).to.include('Ethernet adapter vEthernet (abc123_eth0):');
  });

  it('ipconfig on a dual-stack adapter lists its IPv6 address before the IPv4 one', async () => {
    const r = await run(
      ['ipconfig', '/all'],
      winHost({ interfaces: [{ name: 'abc123_eth0', address: '10.244.1.5', address6: 'fd00:10:244:1::5', prefixLength: 24 }] }),
    );
    expect(r.stdout).to.include(
      '   IPv6 Address. . . . . . . . . . . : fd00:10:244:1::5(Preferred)\r\n   IPv4 Address. . . . . . . . . . . : 10.244.1.5(Preferred)\r\n',
    );
  });

  it('sc.exe queryex on a missing service exits 1060', async () => {
    const r = await run(['sc.exe', 'queryex', 'kubelet'], winHost({ node: nodeViews() }));
    expect(r.code).to.equal(1060);
    expect(r.stdout).to.include('The specified service does not exist as an installed service.');
  });

  it('sc.exe queryex on a running service', async () => {
    const r = await run(
      ['sc.exe', 'queryex', 'kubelet'],
      winHost({ node: nodeViews([], [{ name: 'kubelet', displayName: 'kubelet', status: 'Running', pid: 4624 }]) }),
    );
    expect(r.code).to.equal(0);
    expect(r.stdout).to.include('STATE              : 4  RUNNING');
    expect(r.stdout).to.include('PID                : 4624');
  });

  it('agnhost connect: success is exit 0 and no output', async () => {
    const r = await run(['/agnhost', 'connect', '10.0.0.1:80', '--timeout=3s', '--protocol=tcp'], linuxHost({}, { open: { '10.0.0.1:80': srv.port } }));
    expect(r.code).to.equal(0);
    expect(r.stdout + r.stderr).to.equal('');
  });

  it('agnhost connect on Linux: refused prints REFUSED', async () => {
    const r = await run(['/agnhost', 'connect', '10.0.0.9:80', '--timeout=1s'], linuxHost());
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal('REFUSED\n');
  });

  it('agnhost connect on Windows: refused is OTHER (the ECONNREFUSED quirk)', async () => {
    const r = await run(['/agnhost', 'connect', '10.0.0.9:80', '--timeout=3s'], winHost());
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal('OTHER: dial tcp 10.0.0.9:80: connectex: No connection could be made because the target machine actively refused it.\n');
  });

  it('agnhost connect: a blackhole with --timeout prints TIMEOUT', async () => {
    const r = await run(['/agnhost', 'connect', '10.0.0.66:80', '--timeout=200ms'], winHost({}, { blackhole: ['10.0.0.66'] }));
    expect(r.stderr).to.equal('TIMEOUT\n');
  });

  it('agnhost connect: an unknown name prints DNS:', async () => {
    const r = await run(['/agnhost', 'connect', 'nope:80', '--timeout=1s'], linuxHost());
    expect(r.stderr).to.match(/^DNS: lookup nope/);
    expect(r.code).to.equal(1);
  });

  it('agnhost dns-server-list prints one comma-joined LF line', async () => {
    const r = await run(['/agnhost', 'dns-server-list'], winHost({ dns: { nameservers: ['10.96.0.10', '1.1.1.1'], searches: [], ndots: 5 } }));
    expect(r.stdout).to.equal('10.96.0.10,1.1.1.1\n');
  });

  it('agnhost pause blocks until aborted', async () => {
    const r = await run(['/agnhost', 'pause'], winHost(), { abortAfterMs: 50 });
    expect(r.stdout).to.equal('Paused\n');
    expect(r.code).to.equal(2);
  });

  it('agnhost netexec delegates to host.startServer', async () => {
    const started: string[][] = [];
    const r = await run(
      ['/agnhost', 'netexec', '--http-port=8080', '--udp-port=-1'],
      winHost({
        startServer: async a => {
          started.push(a);
        },
      }),
      { abortAfterMs: 50 },
    );
    expect(started).to.deep.equal([['agnhost', 'netexec', '--http-port=8080', '--udp-port=-1']]);
    expect(r.stderr).to.match(/Started HTTP server on port 8080\n$/);
  });

  it('nc -vz: open prints "<addr> (<addr>:<port>) open" on stderr', async () => {
    const r = await run(['/bin/sh', '-c', 'nc -vz 127.0.0.5 80 -w 10'], linuxHost({}, { open: { '127.0.0.5:80': srv.port } }));
    expect(r.code).to.equal(0);
    expect(r.stderr).to.equal('127.0.0.5 (127.0.0.5:80) open\n');
  });

  it('nc -vz: refused exits 1', async () => {
    const r = await run(['/bin/sh', '-c', 'nc -vz 10.0.0.9 80 -w 1'], linuxHost());
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal('nc: 10.0.0.9 (10.0.0.9:80): Connection refused\n');
  });

  it('hostname from the busybox image prints no newline', async () => {
    const base = winHost();
    const r = await run(['cmd', '/c', 'hostname'], { ...base, hasBinary: n => n === 'busybox-hostname' || base.hasBinary(n) });
    expect(r.stdout).to.equal('iis-7c7757c8bf-24fh4');
  });

  it('whoami prints the lower-case domain\\user', async () => {
    const r = await run(['whoami'], winHost({ user: 'ContainerAdministrator' }));
    expect(r.stdout).to.equal('user manager\\containeradministrator\r\n');
  });
});
