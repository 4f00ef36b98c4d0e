// The proxy a request to the API server goes through, as client-go picks it: the cluster's
// proxy-url when set, else HTTPS_PROXY/HTTP_PROXY unless NO_PROXY names the host, with the rules
// of Go's http.ProxyFromEnvironment
// (https://cs.opensource.google/go/x/net/+/master:http/httpproxy/proxy.go): localhost and
// loopback addresses never go through the environment's proxy; "*" exempts everything; an entry
// matches the host or its subdomains (".x" only subdomains), an IP, or a CIDR, with an optional port.

import { isIP } from 'node:net';

export const PROXY_SCHEMES = ['http:', 'https:', 'socks5:', 'socks5h:'];

function envAny(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const n of names) if (env[n]) return env[n];
  return undefined;
}

/** The proxy URL for `server`, or undefined to connect directly. */
export function proxyFor(server: string, proxyUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (proxyUrl) return proxyUrl;
  const url = new URL(server);
  const https = url.protocol === 'https:';
  let proxy = https ? envAny(env, 'HTTPS_PROXY', 'https_proxy') : envAny(env, 'HTTP_PROXY', 'http_proxy');
  if (!proxy) return undefined;
  const port = url.port || (https ? '443' : '80');
  if (!useProxy(url.hostname, port, envAny(env, 'NO_PROXY', 'no_proxy') ?? '')) return undefined;
  // A proxy without a scheme is http (httpproxy parseProxy).
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(proxy)) proxy = `http://${proxy}`;
  return proxy;
}

function unbracket(h: string): string {
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

function isLoopback(ip: string): boolean {
  if (isIP(ip) === 4) return ip.startsWith('127.');
  return ip === '::1' || /^(0{0,4}:){7}0{0,3}1$/.test(ip) || /^::ffff:127\./i.test(ip);
}

/** Whether a request to host:port goes through the environment's proxy, given NO_PROXY. */
export function useProxy(hostIn: string, port: string, noProxy: string): boolean {
  const host = unbracket(hostIn).toLowerCase();
  if (host === 'localhost' || (isIP(host) && isLoopback(host))) return false;
  for (const raw of noProxy.split(',')) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return false;
    if (entry.includes('/') && isIP(host)) {
      if (inCidr(host, entry)) return false;
      continue;
    }
    let entryPort = '';
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (m) {
      entry = m[1];
      entryPort = m[2];
    }
    entry = unbracket(entry);
    if (entryPort && entryPort !== port) continue;
    if (isIP(entry)) {
      if (entry === host) return false;
      continue;
    }
    if (entry.startsWith('*.')) entry = entry.slice(1);
    if (entry.startsWith('.')) {
      if (host.endsWith(entry)) return false;
      continue;
    }
    if (host === entry || host.endsWith(`.${entry}`)) return false;
  }
  return true;
}

function inCidr(ip: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  const a = ipBytes(ip);
  const b = ipBytes(net);
  if (!a || !b || a.length !== b.length || !Number.isInteger(bits) || bits < 0 || bits > a.length * 8) return false;
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((a[Math.floor(i / 8)] & mask) !== (b[Math.floor(i / 8)] & mask)) return false;
  }
  return true;
}

function ipBytes(ip: string): number[] | undefined {
  if (isIP(ip) === 4) return ip.split('.').map(Number);
  if (isIP(ip) !== 6) return undefined;
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.flatMap(g => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
}
