import { expect } from 'chai';
import { run, winHost, linuxHost, startHttp } from '../../../support/fakeShellHost.ts';

describe('sim shell: curl', () => {
  let srv: { port: number; close: () => Promise<void> };
  before(async () => {
    srv = await startHttp();
  });
  after(async () => {
    await srv.close();
  });
  const host = () => winHost({}, { open: { [`10.0.0.1:80`]: srv.port }, names: { 'web.ns.svc.cluster.local': ['10.0.0.1'] }, blackhole: ['10.0.0.66'] });

  it('exits 0 with the body on stdout and the progress meter on stderr', async () => {
    const r = await run(['curl.exe', 'http://10.0.0.1/'], host());
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('hello');
    expect(r.stderr).to.match(/^ {2}% Total {4}% Received % Xferd/);
  });

  it("prints the error on the meter's line on Server 2019 (inbox curl 7.55), after it on Server 2022", async () => {
    const at = (windowsBuild: string) => run(['curl.exe', 'http://10.0.0.9:8080/', '--connect-timeout', '10', '--fail'], { ...host(), windowsBuild });
    const old = await at('10.0.17763.6189');
    expect(old.code).to.equal(7);
    expect(old.stderr).to.match(/--:--:--\s+0curl: \(7\) Failed to connect/);
    const now = await at('10.0.20348.2582');
    expect(now.stderr).to.match(/--:--:--\s+0\r\ncurl: \(7\) Failed to connect/);
  });

  it('-s hides the progress meter', async () => {
    const r = await run(['curl.exe', '-s', 'http://10.0.0.1/'], host());
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.equal('hello');
  });

  it('resolves a service name with the search suffixes', async () => {
    const r = await run(['curl.exe', '-s', 'http://web/'], host());
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('hello');
  });

  it('exits 7 with "Failed to connect ... Connection refused" on a refused port', async () => {
    const r = await run(['curl.exe', '-sS', 'http://10.0.0.9:8080/'], host());
    expect(r.code).to.equal(7);
    expect(r.stderr).to.match(/^curl: \(7\) Failed to connect to 10\.0\.0\.9 port 8080 after \d+ ms: Connection refused\r\n$/);
  });

  it('exits 22 with --fail on a 404 and writes no body', async () => {
    const r = await run(['curl.exe', '-sS', '--fail', 'http://10.0.0.1/missing'], host());
    expect(r.code).to.equal(22);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.equal('curl: (22) The requested URL returned error: 404\r\n');
  });

  it('without --fail a 404 is exit 0 with the body', async () => {
    const r = await run(['curl.exe', '-s', 'http://10.0.0.1/missing'], host());
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('nope');
  });

  it('exits 28 "Timeout was reached" when the connect times out', async () => {
    const r = await run(['curl.exe', '-sS', '--connect-timeout', '1', 'http://10.0.0.66/'], host());
    expect(r.code).to.equal(28);
    expect(r.stderr).to.match(/^curl: \(28\) Failed to connect to 10\.0\.0\.66 port 80 after \d+ ms: Timeout was reached\r\n$/);
  });

  it('exits 6 "Could not resolve host" for an unknown name', async () => {
    const r = await run(['curl.exe', '-k', 'https://kubernetezzzzzzzz:443'], host());
    expect(r.code).to.equal(6);
    expect(r.stderr).to.match(/curl: \(6\) Could not resolve host: kubernetezzzzzzzz\r\n$/);
  });

  it('-w "%{http_code}" writes the status code', async () => {
    const r = await run(['curl.exe', '-s', '-o', 'NUL', '-w', '%{http_code}', 'http://10.0.0.1/missing'], host());
    expect(r.stdout).to.equal('404');
  });

  it('-I prints the response head', async () => {
    const r = await run(['curl.exe', '-sI', 'http://10.0.0.1/'], host());
    expect(r.stdout).to.match(/^HTTP\/1\.1 200 OK\r\n/);
    expect(r.stdout).to.match(/\r\n\r\n$/);
  });

  it('uses LF on Linux images', async () => {
    const r = await run(['curl', '-sS', 'http://10.0.0.9/'], linuxHost());
    expect(r.stderr).to.match(/Connection refused\n$/);
  });
});
