// Every sample of test/data/real-outputs/ fed to the reader the harness uses for it, with the
// reading a maintainer would give. A sample added without a reading here fails the first test.

import { expect } from 'chai';
import { ApiException } from '@kubernetes/client-node';
import { podStartMeans, refusalMeans } from '../../../../lib/cluster/meansError.ts';
import {
  finalFailureOf,
  isNoRoom,
  isPlatformMismatch,
  isSandboxImagePullFailure,
  isSandboxNetworkFailure,
  pullFailureText,
  unconfiguredHandlerOf,
  userRefusedOf,
} from '../../../../lib/cluster/podFailures.ts';
import { curlFailureOf } from '../../../../lib/probes/readers/curl.ts';
import { isHnsdiagListing, parseHnsdiagBlocks, parseHnsdiagNetworks, parseHnsNetworks } from '../../../../lib/probes/readers/hnsNetworks.ts';
import { nslookupAnswer } from '../../../../lib/probes/readers/nslookup.ts';
import { serviceState, servicePid } from '../../../../lib/probes/readers/service.ts';
import { isEstablished, parseTcpConnections } from '../../../../lib/probes/readers/tcpConnections.ts';
import { interpret, envValue } from '../../../../lib/probes/interpret.ts';
import { pingReplies, pingUnresolved } from '../../../../lib/catalog/net/parse.ts';
import { parseIpconfig } from '../../../../lib/probes/readers/ipconfig.ts';
import { fieldVerdict } from '../../../../lib/catalog/sec/security.ts';
import { COUNT_UVMS } from '../../../../lib/catalog/iso/isolation.ts';
import { realOutput, realOutputFiles } from '../../../support/realOutputs.ts';

const text = (n: string) => realOutput(n).text;
/** The sample's one line of text (event lines as `kubectl describe` prints them). */
const line = (n: string) => text(n).trim();

/** Each sample's reading: the test that feeds it to its reader. */
const READINGS: Record<string, () => void> = {
  '01': () => {
    // hnsdiag's block layout (its "list adapters"): the network reader reads the same layout.
    expect(parseHnsdiagBlocks(text('01'), 'Adapter')).to.deep.equal([
      { name: 'Ethernet', type: 'ethernet' },
      { name: 'Loopback Pseudo-Interface 1', type: 'loopback' },
    ]);
    expect(parseHnsdiagNetworks(text('01'))).to.deep.equal([]);
  },
  '03': () => expect(parseHnsNetworks(text('03'))).to.deep.equal([{ name: 'nat', type: '' }]),
  '04': () => {
    expect(parseHnsNetworks(text('04'))).to.deep.equal([]);
    expect(text('04').trim()).to.equal('');
  },
  '05': () => {
    const nets = parseHnsNetworks(text('05'));
    expect(nets).to.deep.equal([{ name: 'Ethernet', type: 'L2Bridge' }]);
  },
  '06': () => expect(serviceState(text('06'), 0)).to.equal('RUNNING'),
  '07': () => {
    expect(serviceState(text('07'), 0)).to.equal('START_PENDING');
    expect(servicePid(text('07'))).to.equal(4624);
  },
  '08': () => {
    expect(serviceState(text('08'), 0)).to.equal('RUNNING');
    expect(servicePid(text('08'))).to.equal(2148);
  },
  '09': () => {
    expect(serviceState(text('09'), 1060)).to.equal('NOT_INSTALLED');
    expect(serviceState(text('09'), 1), 'the [SC] line alone').to.equal('NOT_INSTALLED');
  },
  '10': () => expect(serviceState(text('10'), 1), 'Spanish: the error code, not the words').to.equal('NOT_INSTALLED'),
  '11': () => expect(serviceState(text('11'), 1)).to.equal('NOT_INSTALLED'),
  '12': () => expect(interpret({ kind: 'os-version' }, 'windows', { stdout: text('12'), stderr: '', exitCode: 0 }).ok).to.equal(true),
  '13': () => {
    expect(isPlatformMismatch(line('13'))).to.equal(true);
    expect(finalFailureOf(line('13'))?.kind).to.equal('platform');
  },
  '15': () => {
    expect(isPlatformMismatch(line('15'))).to.equal(true);
    expect(podStartMeans('ErrImagePull', line('15'))).to.equal('image-platform');
  },
  '16': () => expect(podStartMeans('ErrImagePull', line('16'))).to.equal('image-platform'),
  '17': () => {
    expect(isPlatformMismatch(line('17'))).to.equal(true);
    expect(isSandboxImagePullFailure(line('17'))).to.equal(true);
  },
  '18': () => {
    expect(isPlatformMismatch(line('18'))).to.equal(true);
    expect(isSandboxImagePullFailure(line('18'))).to.equal(true);
  },
  '19': () => {
    expect(isPlatformMismatch(line('19'))).to.equal(false);
    expect(isSandboxImagePullFailure(line('19'))).to.equal(true);
    expect(finalFailureOf(line('19'))).to.equal(undefined);
  },
  '20': () => {
    expect(isSandboxNetworkFailure(line('20'))).to.equal(true);
    expect(finalFailureOf(line('20'))).to.equal(undefined);
  },
  '21': () => {
    expect(isSandboxNetworkFailure(line('21'))).to.equal(true);
    expect(isPlatformMismatch(line('21'))).to.equal(false);
  },
  '22': () => {
    expect(isPlatformMismatch(line('22'))).to.equal(false);
    expect(podStartMeans('ErrImagePull', line('22'))).to.equal('image-pull');
  },
  '23': () => {
    // The excerpt cuts the pull error at "no match for platf": read whole (sample 15), it is the platform.
    const [backOff, failed] = text('23').trim().split(/\r?\n/);
    expect(podStartMeans('ImagePullBackOff', backOff)).to.equal('image-pull');
    expect(pullFailureText(backOff, [failed])).to.include('Failed to pull image "docker.io/library/busybox:1.29"');
    expect(podStartMeans('ImagePullBackOff', backOff, [failed, line('15')])).to.equal('image-platform');
  },
  '24': () => expect(podStartMeans('FailedScheduling', line('24'))).to.equal('capacity'),
  '25': () => {
    expect(podStartMeans('FailedScheduling', line('25'))).to.equal('capacity');
    expect(isNoRoom(line('25'))).to.equal(true);
  },
  '26': () => {
    const reason = /Reason:\s+(\S+)/.exec(text('26'))![1];
    expect(podStartMeans(reason, text('26'))).to.equal('capacity');
  },
  '27': () => {
    const rows = text('27').trim().split(/\r?\n/);
    expect(podStartMeans('FailedScheduling', rows[0])).to.equal('capacity');
    expect(podStartMeans('OutOfcpu', rows[2])).to.equal('capacity');
    expect(isNoRoom(rows[2])).to.equal(true);
  },
  '28': () => {
    expect(unconfiguredHandlerOf(line('28'))).to.equal('runsc');
    expect(finalFailureOf(line('28'))).to.include({ kind: 'runtime-handler', handler: 'runsc' });
  },
  '29': () => expect(finalFailureOf(line('29'))).to.equal(undefined),
  '30': () => {
    expect(isPlatformMismatch(text('30'))).to.equal(false);
    expect(finalFailureOf(text('30'))).to.equal(undefined);
  },
  '31': () => expect(finalFailureOf(line('31'))).to.equal(undefined),
  '32': () => expect(podStartMeans('ErrImagePull', line('32'))).to.equal('image-platform'),
  '33': () => {
    // Code text: what a Windows kubelet returns for an NFS volume. Not a platform or user failure;
    // its words name the fstype (the sim's FailedMount follows it).
    expect(line('33')).to.match(/^only cifs mount is supported now, fstype: %q/);
    expect(finalFailureOf(line('33'))).to.equal(undefined);
  },
  '34': () => {
    const rows = text('34')
      .trim()
      .split(/\r?\n/)
      .map(r => r.split('\t'));
    expect(rows.length).to.equal(25);
    for (const [field, message] of rows) {
      const body = { kind: 'Status', code: 422, reason: 'Invalid', details: { causes: [{ reason: 'FieldValueForbidden', field, message }] } };
      const e = new ApiException(422, 'Unprocessable Entity', body, {});
      expect(fieldVerdict(field, undefined, e).verdict, field).to.equal('forbidden');
    }
  },
  '35': () => {
    const cfg = parseIpconfig(text('35'));
    expect(cfg.hostName).to.equal('iis-site-windows-5769b547f5-6fwc2');
    expect(cfg.searchList).to.deep.equal(['cluster.local', 'default.svc.cluster.local', 'svc.cluster.local']);
    expect(cfg.adapters[0].name).to.match(/^vEthernet \(2f2f5c0b/);
  },
  '36': () => {
    const cfg = parseIpconfig(text('36'));
    expect(cfg.adapters.map(a => a.name)).to.deep.equal(['vEthernet (f6667ee9-eth0)']);
    expect(cfg.adapters[0].ipv4).to.deep.equal(['10.240.0.136']);
    expect(cfg.adapters[0].dnsSuffix).to.equal('default.svc.cluster.local');
  },
  '37': () => {
    const cfg = parseIpconfig(text('37'));
    expect(cfg.hostName).to.equal('EC2AMAZ-FOR3G0G');
    expect(cfg.adapters[0].name).to.equal('vEthernet (HNS Internal NIC)');
    expect(cfg.adapters[0].ipv4).to.deep.equal(['172.20.128.1']);
  },
  '38': () => {
    expect(nslookupAnswer(0, text('38'), '').resolved, 'timed out, exit 0').to.equal(false);
    expect(interpret({ kind: 'dns-lookup', name: 'kubernetes.default' }, 'windows', { stdout: text('38'), stderr: '', exitCode: 0 }).ok).to.equal(false);
  },
  '39': () => expect(pingReplies(text('39'))).to.equal(0),
  '41': () => {
    const f = curlFailureOf(28, text('41'));
    expect(f.kind).to.equal('timeout');
    expect(f.message).to.equal('curl: (28) Failed to connect to github.com port 443 after 21365 ms: Could not connect to server');
  },
  '42': () => expect(curlFailureOf(6, text('42'))).to.deep.equal({ kind: 'resolve', message: 'curl: (6) Could not resolve host: google.com' }),
  '43': () => {
    const rows = parseTcpConnections(text('43'));
    expect(rows).to.have.length(3);
    expect(rows[0]).to.deep.equal({ proto: 'TCP', local: '192.168.0.21', localPort: 61616, foreign: '192.168.0.21', foreignPort: 56799, state: 'ESTABLISHED' });
    expect(rows.every(isEstablished)).to.equal(true);
  },
  '44': () => {
    const rows = parseTcpConnections(text('44'));
    expect(rows.map(r => [r.localPort, r.state])).to.deep.equal([
      [135, 'LISTENING'],
      [445, 'LISTENING'],
      [3389, 'LISTENING'],
    ]);
  },
  '45': () => {
    const rows = parseTcpConnections(text('45'));
    expect(rows.map(r => [r.local, r.localPort, r.state])).to.deep.equal([
      ['127.0.0.1', 45468, 'ESTABLISHED'],
      ['172.25.248.202', 443, 'ESTABLISHED'],
      ['172.25.248.202', 49304, 'ESTABLISHED'],
      ['::1', 7045, 'ESTABLISHED'],
    ]);
    expect(rows[2].foreignPort, 'a service name, not a number').to.be.NaN;
  },
  '47': () => expect(curlFailureOf(1, text('47'))).to.deep.equal({ kind: 'resolve', message: "curl : The remote name could not be resolved: 'google.com'" }),
  '48': () => {
    expect(userRefusedOf(line('48'))).to.deep.equal({ user: '1000' });
    expect(finalFailureOf(line('48'))).to.include({ kind: 'user-refused', user: '1000' });
    expect(isPlatformMismatch(line('48'))).to.equal(false);
  },
  '50': () => expect(refusalMeans(403, line('50'))).to.equal('forbidden'),
  '51': () => expect(nslookupAnswer(0, text('51'), '').resolved).to.equal(false),
  '52': () => expect(pingUnresolved(text('52'), '')).to.equal(true),
  '53': () => {
    const message = /Back-off pulling image "[^"]*"/.exec(line('53'))![0];
    expect(podStartMeans('ImagePullBackOff', message), 'the back-off alone names no platform').to.equal('image-pull');
    // The cause is read from the pod's events: the platform one (sample 15) gives the platform verdict.
    expect(podStartMeans('ImagePullBackOff', message, [line('15')])).to.equal('image-platform');
    expect(pullFailureText(message, [line('15')])).to.include('no match for platform');
  },
  '54': () => expect(text('54').trim()).to.equal('Access is denied.'),
  '55': () => expect(envValue(text('55'))).to.equal('User Manager\\ContainerUser'),
  '56': () => expect(text('56')).to.match(/^user manager\\containeruser\s+S-1-5-93-2-2/m),
  '57': () => {
    const owner = /\\"Owner\\":\\"([^\\"]+)\\"/.exec(text('57'))![1];
    expect(COUNT_UVMS).to.include(`$_.Owner -EQ '${owner}'`);
  },
  '58': () => {
    // Old mount-utils skipped an NFS mount without options and returned success: a local folder, not the export.
    expect(text('58')).to.match(/skip mounting.*return nil/);
    expect(text('58')).to.match(/should have at least 2 options/);
  },
};

describe('real outputs: every sample read by its reader', () => {
  it('every sample in test/data/real-outputs has a source line and a reading here', () => {
    const files = realOutputFiles();
    expect(files.length).to.be.greaterThan(50);
    for (const f of files) {
      expect(realOutput(f).source, f).to.match(/\S/);
      expect(READINGS[f.split('-')[0]], `${f} has no reading in this test`).to.be.a('function');
    }
  });
  for (const f of realOutputFiles()) {
    const id = f.split('-')[0];
    it(`${f} (${realOutput(f).source.slice(0, 80)}…)`, () => {
      const read = READINGS[id];
      if (!read) throw new Error(`${f} has no reading`);
      read();
    });
  }
});

describe('readers by class, not by sample', () => {
  it('sibling wordings give the same verdict: Docker and containerd platform mismatches', () => {
    const siblings = ['13', '15', '16', '17', '18', '32'].map(line);
    expect(siblings.map(isPlatformMismatch)).to.deep.equal(siblings.map(() => true));
    expect(siblings.map(s => podStartMeans('ErrImagePull', s))).to.deep.equal(siblings.map(() => 'image-platform'));
  });
  it('a service whose PID is 1060 is read from its STATE line', () => {
    const out = '\r\nSERVICE_NAME: kubelet\r\n        STATE              : 4  RUNNING\r\n        PID                : 1060\r\n';
    expect(serviceState(out, 0)).to.equal('RUNNING');
  });
  it('the STATE number decides where the word is another language', () => {
    expect(serviceState('        STATE              : 1  DETENIDO\r\n', 0)).to.equal('STOPPED');
  });
  it("curl's error printed on the progress line (inbox curl.exe) is the message", () => {
    const f = curlFailureOf(
      7,
      '  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0curl: (7) Failed to connect to 10.0.0.1 port 80: Connection refused\r\n',
    );
    expect(f).to.deep.equal({ kind: 'connect', message: 'curl: (7) Failed to connect to 10.0.0.1 port 80: Connection refused' });
  });
  it('netstat rows in another display language: states from the addresses', () => {
    const rows = parseTcpConnections('  TCP    10.1.0.5:8080    10.1.0.9:50000    X\r\n  TCP    0.0.0.0:8080    0.0.0.0:0    Y\r\n');
    expect(rows.map(r => r.state)).to.deep.equal(['CONNECTED', 'LISTENING']);
    expect(isEstablished(rows[0])).to.equal(true);
  });
  it('Get-NetTCPConnection | ConvertTo-Json: numeric states', () => {
    const json = JSON.stringify([{ LocalAddress: '10.1.0.5', LocalPort: 8080, RemoteAddress: '10.1.0.9', RemotePort: 50000, State: 5 }]);
    expect(parseTcpConnections(json)).to.deep.equal([
      { proto: 'TCP', local: '10.1.0.5', localPort: 8080, foreign: '10.1.0.9', foreignPort: 50000, state: 'ESTABLISHED' },
    ]);
  });
  it('hnsdiag tables with Name and ID columns and no type', () => {
    const nets = parseHnsdiagNetworks('Name        ID\r\n----        --\r\nnat         5B8A...\r\ncbr0        9E1C...\r\n');
    expect(nets.map(n => [n.name, n.type])).to.deep.equal([
      ['nat', ''],
      ['cbr0', ''],
    ]);
    expect(isHnsdiagListing('Name        ID\r\n')).to.equal(true);
  });
  it('nslookup with an answer is resolved', () => {
    const out =
      'Server:  kube-dns.kube-system.svc.cluster.local\r\nAddress:  10.96.0.10\r\n\r\nName:    kubernetes.default.svc.cluster.local\r\nAddress:  10.96.0.1\r\n';
    expect(nslookupAnswer(0, out, '').resolved).to.equal(true);
  });
});
