// `ipconfig /all` read back: the host name, the DNS suffix search list and each adapter's
// addresses and DNS servers. One reader for every check that looks at a Windows pod's IP
// configuration (the network checks, the StatefulSet's search suffix).

export interface IpconfigAdapter {
  name: string;
  ipv4: string[];
  ipv6: string[];
  dnsServers: string[];
  dnsSuffix?: string;
}

export interface Ipconfig {
  hostName?: string;
  searchList: string[];
  adapters: IpconfigAdapter[];
}

/**
 * `ipconfig /all` (CRLF, "   Label . . . . : value", continuation lines indented with spaces only).
 * Values such as "10.244.2.4(Preferred)" lose the suffix.
 */
export function parseIpconfig(stdout: string): Ipconfig {
  const out: Ipconfig = { searchList: [], adapters: [] };
  let adapter: IpconfigAdapter | undefined;
  let lastKey: string | undefined;
  for (const raw of stdout.split(/\r?\n/)) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) {
      lastKey = undefined;
      continue;
    }
    const header = /^(?:Ethernet|Wireless LAN|Unknown) adapter (.+):\s*$/.exec(line);
    if (header) {
      adapter = { name: header[1], ipv4: [], ipv6: [], dnsServers: [] };
      out.adapters.push(adapter);
      lastKey = undefined;
      continue;
    }
    const kv = /^ {3}(\S[^.:]*?)[ .]*: ?(.*)$/.exec(line);
    if (kv) {
      lastKey = kv[1].trim().toLowerCase();
      add(lastKey, clean(kv[2]));
      continue;
    }
    if (/^\s{10,}\S/.test(line) && lastKey) add(lastKey, clean(line));
  }
  return out;

  function add(key: string, value: string) {
    if (!value) return;
    if (key === 'host name') out.hostName = value;
    else if (key === 'dns suffix search list') out.searchList.push(value);
    else if (!adapter) return;
    else if (key === 'dns servers') adapter.dnsServers.push(value);
    else if (key === 'ipv4 address' || key === 'ip address' || key === 'autoconfiguration ipv4 address') adapter.ipv4.push(value);
    else if (key === 'ipv6 address' || key === 'link-local ipv6 address') adapter.ipv6.push(value.replace(/%\d+$/, ''));
    else if (key === 'connection-specific dns suffix') adapter.dnsSuffix = value;
  }
}

function clean(v: string): string {
  return v.trim().replace(/\((?:Preferred|Deprecated|Tentative|Duplicate)\)$/i, '');
}

/** Every DNS server of every adapter, in order. */
export function dnsServersOf(cfg: Ipconfig): string[] {
  return cfg.adapters.flatMap(a => a.dnsServers);
}
