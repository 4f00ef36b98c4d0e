// Network cmdlets: Test-NetConnection (§4), Resolve-DnsName (§3), Invoke-WebRequest /
// Invoke-RestMethod, Get-NetAdapter, Get-NetIPAddress, Get-DnsClientServerAddress,
// and New-Object System.Net.Sockets.TcpClient (a common PowerShell TCP probe).

import type { CmdletSpec } from './cmdletSpec.ts';
import { PSObject, enumerate, toNum, toStr, truthy } from './values.ts';
import type { PSValue } from './values.ts';
import { connectTo, resolveName } from '../tools/net.ts';
import { lookupWithSearch } from '../tools/dnsnames.ts';
import { httpRequest, reasonPhrase } from '../tools/http.ts';
import type { ShellHost } from '../types.ts';
import { ABORTED_EXIT } from '../io.ts';
import { ExitSignal } from './errors.ts';
import { tcpClient } from './tcpclient.ts';
import { udpClient } from './udpclient.ts';

function alias(host: ShellHost): string {
  const n = host.interfaces[0]?.name ?? 'Ethernet';
  return n.toLowerCase().startsWith('vethernet') ? n : `vEthernet (${n})`;
}

/** Windows' own TCP connect timeout (about 21 s) bounds cmdlets without a timeout parameter. */
const WINDOWS_CONNECT_MS = 21000;

export const netCommands: CmdletSpec[] = [
  {
    name: 'Test-NetConnection',
    params: ['ComputerName|RemoteAddress|cn', 'Port|RemotePort', 'InformationLevel', 'CommonTCPPort'],
    switches: ['TraceRoute', 'DiagnoseRouting'],
    positional: ['ComputerName'],
    async run(c) {
      const target = toStr(c.bound['ComputerName'] ?? 'internetbeacon.msedge.net');
      const quiet = toStr(c.bound['InformationLevel'] ?? '').toLowerCase() === 'quiet';
      const portV = c.bound['Port'] ?? (toStr(c.bound['CommonTCPPort'] ?? '').toLowerCase() === 'http' ? 80 : undefined);
      const warn = (s: string): void => {
        c.io.stdout.write(`WARNING: ${s}\r\n`);
      };
      const r = await resolveName(c.host, target, c.io.signal);
      if (!r.ok) {
        if (r.code === 'EABORTED') throw new ExitSignal(ABORTED_EXIT);
        warn(`Name resolution of ${target} failed`);
        if (quiet) return [false];
        return [
          new PSObject('TestNetConnectionResult', { ComputerName: target, RemoteAddress: '', InterfaceAlias: '', SourceAddress: '', PingSucceeded: false }),
        ];
      }
      const ip = r.value[0]!;
      const base: [string, PSValue][] = [
        ['ComputerName', target],
        ['RemoteAddress', ip],
      ];
      const tail: [string, PSValue][] = [
        ['InterfaceAlias', alias(c.host)],
        ['SourceAddress', c.host.endpoint.address],
      ];
      if (portV === undefined || portV === null) {
        const ok = await c.host.net.ping(c.host.endpoint, ip);
        if (!ok) warn(`Ping to ${ip} failed with status: TimedOut`);
        if (quiet) return [ok];
        return [new PSObject('TestNetConnectionResult', [...base, ...tail, ['PingSucceeded', ok], ['PingReplyDetails (RTT)', `${ok ? 0 : 0} ms`]])];
      }
      const port = toNum(portV);
      const conn = await connectTo(c.host, ip, port, WINDOWS_CONNECT_MS, c.io.signal);
      if (!conn.ok && conn.code === 'EABORTED') throw new ExitSignal(ABORTED_EXIT);
      if (conn.ok) {
        conn.value.destroy();
        if (quiet) return [true];
        return [new PSObject('TestNetConnectionResult', [...base, ['RemotePort', port], ...tail, ['TcpTestSucceeded', true]])];
      }
      // A failed TCP test falls back to a ping, and both warnings are printed (§4).
      warn(`TCP connect to (${ip} : ${port}) failed`);
      const pingOk = await c.host.net.ping(c.host.endpoint, ip);
      if (!pingOk) warn(`Ping to ${ip} failed with status: TimedOut`);
      if (quiet) return [false];
      return [
        new PSObject('TestNetConnectionResult', [
          ...base,
          ['RemotePort', port],
          ...tail,
          ['PingSucceeded', pingOk],
          ['PingReplyDetails (RTT)', '0 ms'],
          ['TcpTestSucceeded', false],
        ]),
      ];
    },
  },
  {
    name: 'Resolve-DnsName',
    params: ['Name', 'Type', 'Server'],
    switches: ['DnsOnly', 'QuickTimeout', 'NoHostsFile', 'TcpOnly'],
    positional: ['Name', 'Type'],
    async run(c) {
      const name = toStr(c.bound['Name'] ?? '');
      const fq = 'Microsoft.DnsClient.Commands.ResolveDnsName';
      if (c.host.dns.nameservers.length === 0) {
        c.error({
          message: `${name} : No DNS servers configured for local system`,
          category: 'ResourceUnavailable',
          target: name,
          reason: 'Win32Exception',
          fqid: `ERROR_NO_DNS_SERVERS,${fq}`,
        });
        return [];
      }
      const r = await lookupWithSearch(c.host, name, c.io.signal);
      if (!r.ok) {
        if (r.code === 'EABORTED') throw new ExitSignal(ABORTED_EXIT);
        const [msg, id] =
          r.code === 'SERVFAIL'
            ? ['DNS server failure', 'DNS_ERROR_RCODE_SERVER_FAILURE']
            : r.code === 'ETIMEDOUT'
              ? ['This operation returned because the timeout period expired', 'ERROR_TIMEOUT']
              : ['DNS name does not exist', 'DNS_ERROR_RCODE_NAME_ERROR'];
        c.error({ message: `${name} : ${msg}`, category: 'ResourceUnavailable', target: name, reason: 'Win32Exception', fqid: `${id},${fq}` });
        return [];
      }
      const clusterDomain = c.host.dns.searches[c.host.dns.searches.length - 1] ?? 'cluster.local';
      const ttl = r.name.endsWith(clusterDomain) ? 5 : 30;
      return r.addresses.map(a => new PSObject('DnsRecord', { Name: r.name, Type: 'A', TTL: ttl, Section: 'Answer', IPAddress: a, IP4Address: a }));
    },
  },
  ...['Invoke-WebRequest', 'Invoke-RestMethod'].map((name): CmdletSpec => ({
    name,
    params: ['Uri', 'TimeoutSec', 'Method', 'Headers', 'OutFile', 'MaximumRedirection', 'UserAgent'],
    switches: ['UseBasicParsing', 'SkipCertificateCheck', 'DisableKeepAlive'],
    positional: ['Uri'],
    async run(c) {
      const desktop = c.interp.edition === 'desktop';
      const raw = toStr(c.bound['Uri'] ?? '');
      let url: URL;
      try {
        url = new URL(/^[a-z]+:\/\//i.test(raw) ? raw : `http://${raw}`);
      } catch {
        throw c.fail({
          message: 'Invalid URI: The hostname could not be parsed.',
          category: 'NotSpecified',
          target: '',
          targetType: '',
          reason: 'UriFormatException',
          fqid: `System.UriFormatException,Microsoft.PowerShell.Commands.${name.replace('-', '')}Command`,
        });
      }
      const timeoutSec = c.bound['TimeoutSec'] !== undefined ? toNum(c.bound['TimeoutSec'] ?? 0) : desktop ? 100 : 100;
      const maxMs = timeoutSec > 0 ? timeoutSec * 1000 : undefined;
      const r = await httpRequest(c.host, {
        url,
        method: toStr(c.bound['Method'] ?? 'GET').toUpperCase() === 'HEAD' ? 'HEAD' : 'GET',
        insecure: truthy(c.bound['SkipCertificateCheck'] ?? false),
        connectTimeoutMs: Math.min(WINDOWS_CONNECT_MS, maxMs ?? WINDOWS_CONNECT_MS),
        maxTimeMs: maxMs,
        headers: [
          [
            'User-Agent',
            desktop
              ? 'Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.20348.2582'
              : 'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.20348; en-US) PowerShell/7.4.6',
          ],
          ['Connection', 'Keep-Alive'],
        ],
        signal: c.io.signal,
      });
      const cmd = name.replace('-', '');
      const webFail = (message: string, category = 'InvalidOperation'): never => {
        throw c.fail({
          message,
          category,
          target: desktop ? 'System.Net.HttpWebRequest' : 'Method: GET',
          targetType: desktop ? 'HttpWebRequest' : 'HttpRequestMessage',
          reason: desktop ? 'WebException' : 'HttpRequestException',
          fqid: `WebCmdletWebResponseException,Microsoft.PowerShell.Commands.${cmd}Command`,
        });
      };
      if (!r.ok) {
        const f = r.failure;
        if (f.kind === 'aborted') throw new ExitSignal(ABORTED_EXIT);
        if (f.kind === 'resolve') webFail(desktop ? `The remote name could not be resolved: '${f.host}'` : 'No such host is known.');
        if (f.kind === 'connect' && f.code === 'ECONNREFUSED')
          webFail(
            desktop ? 'Unable to connect to the remote server' : `No connection could be made because the target machine actively refused it. (${url.host})`,
          );
        if (f.kind === 'connect' && f.code !== 'ETIMEDOUT')
          webFail(desktop ? 'Unable to connect to the remote server' : `A socket operation was attempted to an unreachable host. (${url.host})`);
        if (f.kind === 'connect' || f.kind === 'timeout')
          webFail(
            desktop ? 'The operation has timed out.' : `The request was canceled due to the configured HttpClient.Timeout of ${timeoutSec} seconds elapsing.`,
          );
        if (f.kind === 'tls')
          webFail(
            desktop
              ? 'The underlying connection was closed: Could not establish trust relationship for the SSL/TLS secure channel.'
              : 'The SSL connection could not be established, see inner exception.',
          );
        webFail(desktop ? 'The underlying connection was closed: The connection was closed unexpectedly.' : 'An error occurred while sending the request.');
        return [];
      }
      const res = r.res;
      if (res.statusCode >= 400) {
        webFail(
          desktop
            ? `The remote server returned an error: (${res.statusCode}) ${res.statusText || reasonPhrase(res.statusCode)}.`
            : `Response status code does not indicate success: ${res.statusCode} (${res.statusText || reasonPhrase(res.statusCode)}).`,
        );
      }
      const content = res.body.toString('utf8');
      const outFile = c.bound['OutFile'];
      if (outFile !== undefined && outFile !== null) {
        c.host.fs.write(toStr(outFile), res.body);
        return [];
      }
      if (name === 'Invoke-RestMethod') {
        const ct = res.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
        if (/json/i.test(ct)) {
          try {
            return enumerate(jsonToPS(JSON.parse(content) as unknown));
          } catch {
            return [content];
          }
        }
        return [content];
      }
      const headers = new PSObject(
        'Hashtable',
        res.headers.map(([k, v]) => [k, v] as [string, PSValue]),
      );
      const rawContent = `${res.rawHead}${content}`;
      return [
        new PSObject(desktop ? 'BasicHtmlWebResponseObject' : 'BasicHtmlWebResponseObject', [
          ['StatusCode', res.statusCode],
          ['StatusDescription', res.statusText || reasonPhrase(res.statusCode)],
          ['Content', content.length > 200 ? `${content.slice(0, 200)}...` : content],
          ['RawContent', rawContent.length > 200 ? `${rawContent.slice(0, 200)}...` : rawContent],
          ['Forms', null],
          ['Headers', headers],
          ['Images', []],
          ['InputFields', []],
          ['Links', []],
          ['ParsedHtml', null],
          ['RawContentLength', res.body.length],
        ]),
      ].map(o => {
        o.set('Content', content);
        o.set('RawContent', rawContent);
        return o;
      });
    },
  })),
  {
    name: 'Get-NetAdapter',
    params: ['Name'],
    positional: ['Name'],
    async run(c) {
      return c.host.interfaces.map(
        (i, k) =>
          new PSObject('NetAdapter', {
            Name: i.name.toLowerCase().startsWith('vethernet') ? i.name : `vEthernet (${i.name})`,
            InterfaceDescription: `Hyper-V Virtual Ethernet Adapter #${k + 2}`,
            ifIndex: 10 + k,
            Status: 'Up',
            MacAddress: `00-15-5D-00-00-${(k + 1).toString(16).padStart(2, '0').toUpperCase()}`,
            LinkSpeed: '10 Gbps',
          }),
      );
    },
  },
  {
    name: 'Get-NetIPAddress',
    params: ['InterfaceAlias', 'AddressFamily'],
    positional: [],
    async run(c) {
      return c.host.interfaces.map(
        (i, k) =>
          new PSObject('NetIPAddress', {
            IPAddress: i.address,
            InterfaceIndex: 10 + k,
            InterfaceAlias: i.name.toLowerCase().startsWith('vethernet') ? i.name : `vEthernet (${i.name})`,
            AddressFamily: 'IPv4',
            Type: 'Unicast',
            PrefixLength: i.prefixLength,
            PrefixOrigin: 'Manual',
            SuffixOrigin: 'Manual',
            AddressState: 'Preferred',
          }),
      );
    },
  },
  {
    name: 'Get-DnsClientServerAddress',
    params: ['InterfaceAlias', 'AddressFamily'],
    positional: ['InterfaceAlias'],
    async run(c) {
      return c.host.interfaces.map(
        (i, k) =>
          new PSObject('DnsClientServerAddress', {
            InterfaceAlias: i.name.toLowerCase().startsWith('vethernet') ? i.name : `vEthernet (${i.name})`,
            Interface: 10 + k,
            Address: 'IPv4',
            ServerAddresses: c.host.dns.nameservers,
          }),
      );
    },
  },
  {
    name: 'New-Object',
    params: ['TypeName', 'ArgumentList', 'Property'],
    positional: ['TypeName', 'ArgumentList'],
    async run(c) {
      const type = toStr(c.bound['TypeName'] ?? '')
        .toLowerCase()
        .replace(/^system\./, '');
      const args = enumerate(c.bound['ArgumentList'] ?? null);
      if (type === 'psobject' || type === 'pscustomobject') {
        const p = c.bound['Property'];
        return [new PSObject('PSCustomObject', p instanceof PSObject ? p.props.map(([k, v]): [string, PSValue] => [k, v]) : [])];
      }
      if (type === 'byte[]') return [await allocate(c.host, toNum(args[0] ?? 0), m => c.fail(m))];
      if (type === 'net.sockets.udpclient') return [udpClient(c.host, c.interp.signal)];
      if (type === 'net.sockets.tcpclient') {
        if (args.length < 2) return [tcpClient(c.host, c.interp.signal)];
        const host = toStr(args[0] ?? null);
        const r = await resolveName(c.host, host, c.io.signal);
        const fail = (msg: string): never => {
          throw c.fail({
            message: `Exception calling ".ctor" with "2" argument(s): "${msg}"`,
            category: 'InvalidOperation',
            target: '',
            targetType: '',
            reason: 'MethodInvocationException',
            fqid: 'ConstructorInvokedThrowException,Microsoft.PowerShell.Commands.NewObjectCommand',
          });
        };
        if (!r.ok) return fail(r.code === 'EABORTED' ? 'aborted' : 'No such host is known');
        const port = toNum(args[1] ?? 0);
        const conn = await connectTo(c.host, r.value[0]!, port, WINDOWS_CONNECT_MS, c.io.signal);
        if (!conn.ok) {
          if (conn.code === 'EABORTED') throw new ExitSignal(ABORTED_EXIT);
          return fail(
            conn.code === 'ECONNREFUSED'
              ? `No connection could be made because the target machine actively refused it ${r.value[0]}:${port}`
              : `A connection attempt failed because the connected party did not properly respond after a period of time, or established connection failed because connected host has failed to respond ${r.value[0]}:${port}`,
          );
        }
        conn.value.destroy();
        return [new PSObject('TcpClient', { Connected: true, Available: 0, ReceiveTimeout: 0, SendTimeout: 0 })];
      }
      throw c.fail({
        message: `Cannot find type [${toStr(c.bound['TypeName'] ?? '')}]: verify that the assembly containing this type is loaded.`,
        category: 'InvalidType',
        target: '',
        targetType: '',
        reason: 'PSArgumentException',
        fqid: 'TypeNotFound,Microsoft.PowerShell.Commands.NewObjectCommand',
      });
    },
  },
];

/**
 * A memory probe's allocation (`New-Object byte[] 200MB`, `[byte[]]::new(200MB)`): reported to
 * host.resources.allocateMemory instead of really allocating. Windows has no OOM killer
 * (FEATURES res.memory-no-oomkill), so the runtime decides what oomKilled means; a refusal is
 * .NET's OutOfMemoryException.
 */
export async function allocate(
  host: ShellHost,
  bytes: number,
  fail: (m: { message: string; category: string; target: string; targetType: string; reason: string; fqid: string }) => Error,
): Promise<PSValue> {
  const r = host.resources?.allocateMemory(bytes) ?? { ok: true, oomKilled: false };
  if (r.oomKilled) throw new ExitSignal(137);
  if (!r.ok)
    throw fail({
      message: "Exception of type 'System.OutOfMemoryException' was thrown.",
      category: 'NotSpecified',
      target: '',
      targetType: '',
      reason: 'OutOfMemoryException',
      fqid: 'System.OutOfMemoryException',
    });
  return new PSObject('Byte[]', { Length: bytes, Count: bytes }, 'System.Byte[]');
}

function jsonToPS(x: unknown): PSValue {
  if (x === null || typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return x;
  if (Array.isArray(x)) return x.map(jsonToPS);
  if (typeof x === 'object')
    return new PSObject(
      'PSCustomObject',
      Object.entries(x as Record<string, unknown>).map(([k, v]): [string, PSValue] => [k, jsonToPS(v)]),
    );
  return null;
}
