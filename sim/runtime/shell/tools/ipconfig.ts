// ipconfig and ipconfig /all, composed from host.interfaces and host.dns in the
// layout of docs/windows-commands.md §4 (e2e only checks that a DNS server address appears).

import type { ProgramCtx } from '../types.ts';

function mask(prefix: number): string {
  const bits = prefix <= 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [24, 16, 8, 0].map(s => (bits >>> s) & 255).join('.');
}

/** "   Host Name . . . . : " — dots sit on odd columns up to column 35, the value at column 39 (§4). */
function label(name: string): string {
  let s = `   ${name}`;
  for (let i = s.length; i < 36; i++) s += i % 2 === 1 ? '.' : ' ';
  return `${s} : `;
}

function adapterName(n: string): string {
  return n.toLowerCase().startsWith('vethernet') ? n : `vEthernet (${n})`;
}

export async function runIpconfig(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const all = ctx.args.some(a => a.toLowerCase() === '/all' || a.toLowerCase() === '-all');
  const lines: string[] = ['', 'Windows IP Configuration', ''];
  const cont = ' '.repeat(39);
  if (all) {
    lines.push(`${label('Host Name')}${host.hostname}`);
    lines.push(`${label('Primary Dns Suffix ')}`);
    lines.push(`${label('Node Type')}Hybrid`);
    lines.push(`${label('IP Routing Enabled')}No`);
    lines.push(`${label('WINS Proxy Enabled')}No`);
    const [first, ...rest] = host.dns.searches;
    if (first !== undefined) {
      lines.push(`${label('DNS Suffix Search List')}${first}`);
      for (const s of rest) lines.push(`${cont}${s}`);
    }
    lines.push('');
  } else lines.push('');
  for (const [i, itf] of host.interfaces.entries()) {
    lines.push(`Ethernet adapter ${adapterName(itf.name)}:`, '');
    lines.push(`${label('Connection-specific DNS Suffix ')}${itf.dnsSuffix ?? host.dns.searches[0] ?? ''}`);
    if (all) {
      lines.push(`${label('Description')}Hyper-V Virtual Ethernet Adapter #${i + 2}`);
      lines.push(`${label('Physical Address')}00-15-5D-00-00-${(i + 1).toString(16).padStart(2, '0').toUpperCase()}`);
      lines.push(`${label('DHCP Enabled')}No`);
      lines.push(`${label('Autoconfiguration Enabled ')}Yes`);
      // A dual-stack pod's IPv6 address comes first, as ipconfig lists IPv6 before IPv4 (UNCONFIRMED for pods).
      if (itf.address6) lines.push(`${label('IPv6 Address')}${itf.address6}(Preferred)`);
      lines.push(`${label('IPv4 Address')}${itf.address}(Preferred)`);
    } else {
      if (itf.address6) lines.push(`${label('IPv6 Address')}${itf.address6}`);
      lines.push(`${label('IPv4 Address')}${itf.address}`);
    }
    lines.push(`${label('Subnet Mask')}${mask(itf.prefixLength)}`);
    lines.push(`${label('Default Gateway ')}${itf.gateway ?? ''}`);
    if (all) {
      const [d0, ...dr] = host.dns.nameservers;
      lines.push(`${label('DNS Servers')}${d0 ?? ''}`);
      for (const d of dr) lines.push(`${cont}${d}`);
      lines.push(`${label('NetBIOS over Tcpip')}Disabled`);
    }
    lines.push('');
  }
  io.stdout.write(lines.map(l => `${l}\r\n`).join(''));
  return 0;
}
