// Probe output parsing for the real formats of docs/windows-commands.md (§2 curl, §4 ping/ipconfig,
// §6 agnhost) and netstat.

import { expect } from 'chai';
import {
  clientIpOf,
  clusterDomainOf,
  curlFailureOf,
  destinationVerdict,
  dialResultOf,
  hostnameOf,
  parseNetstat,
  pingReplies,
  pingUnresolved,
  nameUnresolved,
} from '../../../../lib/catalog/net/parse.ts';
import { dnsServersOf, parseIpconfig } from '../../../../lib/probes/readers/ipconfig.ts';

const CRLF = (lines: string[]) => lines.join('\r\n') + '\r\n';

// docs/windows-commands.md §4 composite, with an extra DNS server on a continuation line.
const IPCONFIG_ALL = CRLF([
  '',
  'Windows IP Configuration',
  '',
  '   Host Name . . . . . . . . . . . . : iis-site-windows-5769b547f5-6fwc2',
  '   Primary Dns Suffix  . . . . . . . :',
  '   Node Type . . . . . . . . . . . . : Hybrid',
  '   IP Routing Enabled. . . . . . . . : No',
  '   WINS Proxy Enabled. . . . . . . . : No',
  '   DNS Suffix Search List. . . . . . : cluster.local',
  '                                       default.svc.cluster.local',
  '                                       svc.cluster.local',
  '',
  'Ethernet adapter vEthernet (abc123_eth0):',
  '',
  '   Connection-specific DNS Suffix  . : cluster.local',
  '   Description . . . . . . . . . . . : Hyper-V Virtual Ethernet Adapter #4',
  '   Link-local IPv6 Address . . . . . : fe80::1c4a:2b3d:4e5f:6a7b%23(Preferred)',
  '   IPv4 Address. . . . . . . . . . . : 10.244.2.4(Preferred)',
  '   Subnet Mask . . . . . . . . . . . : 255.255.255.0',
  '   Default Gateway . . . . . . . . . : 10.244.2.1',
  '   DNS Servers . . . . . . . . . . . : 10.0.0.10',
  '                                       1.1.1.1',
  '   NetBIOS over Tcpip. . . . . . . . : Disabled',
]);

describe('networking probe output parsing', () => {
  describe('ipconfig /all (§4)', () => {
    it('reads host name, search list with continuation lines, adapter addresses and DNS servers', () => {
      const cfg = parseIpconfig(IPCONFIG_ALL);
      expect(cfg.hostName).to.equal('iis-site-windows-5769b547f5-6fwc2');
      expect(cfg.searchList).to.deep.equal(['cluster.local', 'default.svc.cluster.local', 'svc.cluster.local']);
      expect(cfg.adapters).to.have.length(1);
      expect(cfg.adapters[0].name).to.equal('vEthernet (abc123_eth0)');
      expect(cfg.adapters[0].ipv4).to.deep.equal(['10.244.2.4']);
      expect(cfg.adapters[0].ipv6).to.deep.equal(['fe80::1c4a:2b3d:4e5f:6a7b%23'.replace(/%\d+$/, '')]);
      expect(dnsServersOf(cfg)).to.deep.equal(['10.0.0.10', '1.1.1.1']);
    });
    it('finds the cluster domain from the namespace suffix', () => {
      expect(clusterDomainOf(['default.svc.cluster.local', 'svc.cluster.local'], 'default')).to.equal('cluster.local');
      expect(clusterDomainOf(['ns1.svc.corp.example', 'svc.corp.example'], 'ns1')).to.equal('corp.example');
      expect(clusterDomainOf(['cluster.local'], 'ns1')).to.equal(undefined);
    });
    it('accepts LF-only output and an empty DNS list', () => {
      const cfg = parseIpconfig('Windows IP Configuration\n\nEthernet adapter Ethernet:\n\n   IPv4 Address. . . . . . . . . . . : 10.1.2.3\n');
      expect(cfg.adapters[0].ipv4).to.deep.equal(['10.1.2.3']);
      expect(dnsServersOf(cfg)).to.deep.equal([]);
    });
  });

  describe('curl exit codes (§2)', () => {
    it('classifies 6, 7, 22 and 28 and keeps the curl line', () => {
      expect(curlFailureOf(6, 'curl: (6) Could not resolve host: google.com\r\n')).to.deep.equal({
        kind: 'resolve',
        message: 'curl: (6) Could not resolve host: google.com',
      });
      expect(curlFailureOf(7, '  % Total    % Received\r\ncurl: (7) Failed to connect to 10.0.0.1 port 80 after 2 ms: Connection refused\r\n').kind).to.equal(
        'connect',
      );
      expect(curlFailureOf(22, 'curl: (22) The requested URL returned error: 404\n').kind).to.equal('http');
      expect(curlFailureOf(28, 'curl: (28) Failed to connect to github.com port 443 after 21365 ms: Could not connect to server').kind).to.equal('timeout');
    });
    it('falls back to the exit code without a curl line', () => {
      expect(curlFailureOf(6, '').kind).to.equal('resolve');
      expect(curlFailureOf(1, 'boom').message).to.equal('boom');
    });
  });

  describe('agnhost netexec (§6)', () => {
    it('reads /clientip as ip:port, [v6]:port and IPv4-mapped', () => {
      expect(clientIpOf('10.244.1.5:51234')).to.equal('10.244.1.5');
      expect(clientIpOf('[fd00::5]:51234\n')).to.equal('fd00::5');
      expect(clientIpOf('[::ffff:10.0.0.4]:80')).to.equal('10.0.0.4');
      expect(clientIpOf('404 page not found')).to.equal(undefined);
    });
    it('reads /hostname without a newline', () => {
      expect(hostnameOf('net-win-peer')).to.equal('net-win-peer');
      expect(hostnameOf('net-win-peer\r\n')).to.equal('net-win-peer');
    });
  });

  describe('ping (§4): replies, not exit codes', () => {
    it('counts Windows replies and Linux "bytes from"', () => {
      const win = CRLF([
        '',
        'Pinging 8.8.8.8 with 32 bytes of data:',
        'Reply from 8.8.8.8: bytes=32 time=3ms TTL=117',
        '',
        'Ping statistics for 8.8.8.8:',
        '    Packets: Sent = 1, Received = 1, Lost = 0 (0% loss),',
      ]);
      expect(pingReplies(win)).to.equal(1);
      expect(pingReplies('PING 8.8.8.8 (8.8.8.8): 56 data bytes\n64 bytes from 8.8.8.8: seq=0 ttl=117 time=3.1 ms\n')).to.equal(1);
    });
    it('does not count timeouts or "Destination host unreachable" (which Windows counts as Received)', () => {
      expect(
        pingReplies(CRLF(['Pinging 8.8.8.8 with 32 bytes of data:', 'Request timed out.', '', '    Packets: Sent = 1, Received = 0, Lost = 1 (100% loss),'])),
      ).to.equal(0);
      expect(
        pingReplies(
          CRLF([
            'Pinging 8.8.8.8 with 32 bytes of data:',
            'Reply from 10.0.0.1: Destination host unreachable.',
            '    Packets: Sent = 1, Received = 1, Lost = 0 (0% loss),',
          ]),
        ),
      ).to.equal(0);
    });
    it('tells an unresolved name apart', () => {
      expect(pingUnresolved('Ping request could not find host nope. Please check the name and try again.\r\n', '')).to.equal(true);
      expect(pingUnresolved('', "ping: bad address 'nope'")).to.equal(true);
      expect(pingUnresolved('Request timed out.', '')).to.equal(false);
    });
    it('tells an unresolved name apart in nc -vz (busybox and OpenBSD nc)', () => {
      expect(nameUnresolved('', "nc: bad address 'egress.example'")).to.equal(true);
      expect(nameUnresolved('', 'nc: getaddrinfo for host "egress.example" port 80: Name or service not known')).to.equal(true);
      expect(nameUnresolved('', 'nc: getaddrinfo for host "egress.example" port 80: Temporary failure in name resolution')).to.equal(true);
      expect(nameUnresolved('', 'nc: connect to 203.0.113.7 port 80 (tcp) timed out: Operation now in progress')).to.equal(false);
    });
  });

  describe('netstat -an', () => {
    it('reads Windows TCP rows', () => {
      const rows = parseNetstat(
        CRLF([
          '',
          'Active Connections',
          '',
          '  Proto  Local Address          Foreign Address        State',
          '  TCP    0.0.0.0:8080           0.0.0.0:0              LISTENING',
          '  TCP    10.244.2.4:8080        10.0.0.4:51234         ESTABLISHED',
          '  TCP    [::]:8080              [::]:0                 LISTENING',
        ]),
      );
      expect(rows).to.have.length(3);
      expect(rows[1]).to.deep.equal({ proto: 'TCP', local: '10.244.2.4', localPort: 8080, foreign: '10.0.0.4', foreignPort: 51234, state: 'ESTABLISHED' });
      expect(rows[2].local).to.equal('::');
    });
    it('judges preserve-destination: the LB address as local address means no DNAT', () => {
      const row = (local: string, state = 'ESTABLISHED') => ({ proto: 'TCP', local, localPort: 8080, foreign: '10.0.0.4', foreignPort: 5000, state });
      expect(destinationVerdict([row('10.244.2.4'), row('20.1.2.3')], '20.1.2.3', 8080)).to.equal('preserved');
      expect(destinationVerdict([row('10.244.2.4')], '20.1.2.3', 8080)).to.equal('dnat');
      expect(destinationVerdict([row('0.0.0.0', 'LISTENING')], '20.1.2.3', 8080)).to.equal('unseen');
    });
  });

  describe('dialResultOf (agnhost netexec /dial)', () => {
    it('reads responses and errors as agnhost writes them (keys only when non-empty)', () => {
      expect(dialResultOf('{"responses":["net-win-peer"]}')).to.deep.equal({ responses: ['net-win-peer'], errors: [] });
      const timeout = "reading from udp connection failed. err:'read udp 10.244.1.5:61234->10.244.1.6:8081: i/o timeout'";
      expect(dialResultOf(JSON.stringify({ errors: [timeout] }))).to.deep.equal({ responses: [], errors: [timeout] });
      expect(dialResultOf('{"errors":["e1"],"responses":["a ","b"]}\r\n')).to.deep.equal({ responses: ['a', 'b'], errors: ['e1'] });
    });
    it('is undefined for anything that is not a dial result', () => {
      for (const body of ['', 'net-win-peer', '404 page not found', '[]', '{}', '{"responses":"x"}', '{"errors":[1]}', 'null'])
        expect(dialResultOf(body), body).to.equal(undefined);
    });
  });
});
