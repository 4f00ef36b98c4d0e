// ShellHosts: what the interpreter sees of a container, a HostProcess container or
// an SSH session on a node. Identity (hostname, user, env per docs/windows-commands.md §1, §8),
// resolver settings per dnsPolicy, interfaces, and the pod's network namespace
// (localhost is the pod itself: the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) work.multi-container).

import type { V1Pod } from '@kubernetes/client-node';
import type { ConnectOptions, DnsConfig, Endpoint, NetworkTwin } from '../network/types.ts';
import { NetError } from '../network/types.ts';
import type { RuntimeContext } from './context.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import type { ShellHost } from './shell/types.ts';
import { ContainerFS } from './fs.ts';

/** COMPUTERNAME: upper-case, capped at 15 characters (MAX_COMPUTERNAME_LENGTH, §8). */
export const computerName = (name: string) => name.toUpperCase().slice(0, 15);

/** Users a Windows container can run as without a sandbox failure (§1, §5). */
const VALID_WINDOWS_USERS = ['containeruser', 'containeradministrator'];
const HOSTPROCESS_USERS = ['nt authority\\system', 'nt authority\\local service', 'nt authority\\network service'];

/** Whether runAsUserName names an account the container can log on as. */
/**
 * A HostProcess runAsUserName that is no built-in account: hcsshim 0.10 (containerd 1.7+) takes it
 * as a local group and runs the container as a temporary account in it (upstream host_process.go
 * "should run as localgroup accounts").
 */
export function localGroupName(user: string): boolean {
  const u = user.toLowerCase();
  return !u.includes('\\') && !HOSTPROCESS_USERS.includes(u) && !VALID_WINDOWS_USERS.includes(u);
}

export function validWindowsUser(user: string, hostProcess: boolean): boolean {
  const u = user.toLowerCase();
  // HostProcess: the NT AUTHORITY service accounts log on without a password; any other account cannot.
  if (hostProcess) return HOSTPROCESS_USERS.includes(u) || VALID_WINDOWS_USERS.includes(u);
  return VALID_WINDOWS_USERS.includes(u);
}

/** The resolver a pod gets from dnsPolicy / dnsConfig. */
export function podDns(ctx: RuntimeContext, pod: V1Pod, node: NodeRuntime): DnsConfig {
  const ns = pod.metadata!.namespace!;
  const domain = ctx.profile.network.clusterDomain ?? 'cluster.local';
  const cluster: DnsConfig = { nameservers: [ctx.network.dnsServer().address], searches: [`${ns}.svc.${domain}`, `svc.${domain}`, domain], ndots: 5 };
  const nodeResolver = nodeDns(ctx, node);
  const hostNet = pod.spec?.hostNetwork ?? false;
  // breaks: dns-config: the Windows pod's own DNS settings (dnsPolicy None + dnsConfig,
  // FEATURES net.dns-config) never reach its adapter: it gets what ClusterFirst would give.
  const ignoreOwn = node.os === 'windows' && ctx.broken('dns-config');
  const policy = ignoreOwn ? 'ClusterFirst' : (pod.spec?.dnsPolicy ?? 'ClusterFirst');
  let base: DnsConfig;
  if (policy === 'None') base = { nameservers: [], searches: [], ndots: 5 };
  else if (policy === 'Default') base = nodeResolver;
  else if (policy === 'ClusterFirstWithHostNet')
    // the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) net.dns-hostnet: not supported on Windows: the host's resolver stays.
    base = hostNet && ctx.limited('dnsHostNetwork', node.os === 'windows') ? nodeResolver : cluster;
  else base = hostNet ? nodeResolver : cluster;
  const dc = ignoreOwn ? undefined : pod.spec?.dnsConfig;
  if (dc) {
    base = {
      nameservers: [...base.nameservers, ...(dc.nameservers ?? [])].slice(0, 3),
      searches: [...new Set([...base.searches, ...(dc.searches ?? [])])],
      ndots: Number(dc.options?.find(o => o.name === 'ndots')?.value ?? base.ndots),
    };
  }
  return base;
}

/** The node's own resolver: the upstream DNS outside the cluster, no cluster search suffixes. */
export function nodeDns(ctx: RuntimeContext, _node: NodeRuntime): DnsConfig {
  // A node resolves through its infrastructure DNS, which knows external names but not
  // cluster.local (so host-network pods without ClusterFirstWithHostNet cannot resolve
  // services: the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) net.dns-hostnet). Older twins without one: cluster DNS.
  const upstream = ctx.network.upstreamDnsServer?.() ?? ctx.network.dnsServer();
  return { nameservers: [upstream.address], searches: [], ndots: 1 };
}

/**
 * The pod's view of the network: localhost / 127.0.0.1 / ::1 are the pod's own address
 * (shared network namespace). breaks: shared-netns makes a sibling container's port
 * unreachable through localhost.
 */
export function podNetwork(net: NetworkTwin, self: () => Endpoint, siblingPort: (port: number) => boolean, brokenSharedNetns: boolean): NetworkTwin {
  const isLocal = (h: string) => ['localhost', '127.0.0.1', '::1', '[::1]'].includes(h.toLowerCase());
  const connect = async (o: ConnectOptions) => {
    const me = self();
    if (isLocal(o.host) || o.host === me.address) {
      if (brokenSharedNetns && siblingPort(o.port)) throw new NetError('ECONNREFUSED', `connect ECONNREFUSED ${o.host}:${o.port}`);
      return net.connect({ ...o, host: me.hostNetwork ? net.nodeAddress(me.node ?? '') : me.address });
    }
    return net.connect(o);
  };
  const resolve = async (from: Endpoint, name: string, dns: DnsConfig) => (isLocal(name) ? [self().address] : net.resolve(from, name, dns));
  const ping = async (from: Endpoint, host: string) => (isLocal(host) ? true : net.ping(from, host));
  // A proxy, so the twin's other methods (and a class's prototype methods) stay reachable.
  return new Proxy(net, {
    get(target, prop) {
      if (prop === 'connect') return connect;
      if (prop === 'resolve') return resolve;
      if (prop === 'ping') return ping;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** What makeHost needs: the ShellHost's own fields, plus the image's binaries and the node (node views). */
export type HostParts = Pick<
  ShellHost,
  'os' | 'windowsBuild' | 'hostname' | 'user' | 'env' | 'fs' | 'endpoint' | 'dns' | 'net' | 'interfaces' | 'resources' | 'startServer' | 'domain' | 'gpu'
> & { binaries: Iterable<string>; node?: NodeRuntime };

export function makeHost(p: HostParts): ShellHost {
  const { binaries, node, resources, startServer, ...own } = p;
  const bins = new Set([...binaries].map(b => b.toLowerCase()));
  const host: ShellHost = { ...own, hasBinary: name => bins.has(name.toLowerCase().replace(/^.*[\\/]/, '')) };
  if (node)
    host.node = {
      services: () => node.services(),
      hnsNetworks: () => node.hnsNetworks(),
      hnsEndpoints: () => node.hnsEndpoints(),
      hnsModule: () => node.hasHnsModule(),
      computeProcesses: () => node.computeProcesses(),
      localGroups: () => node.localGroups,
      shutdown: o => node.shutdown(o),
    };
  if (resources) host.resources = resources;
  if (startServer) host.startServer = startServer;
  return host;
}

/** Windows host tools (System32 plus the node's k8s binaries). */
const WINDOWS_NODE_BINS = [
  'cmd.exe',
  'powershell.exe',
  'shutdown.exe',
  'curl.exe',
  'nslookup.exe',
  'ping.exe',
  'ipconfig.exe',
  'whoami.exe',
  'hostname.exe',
  'sc.exe',
  'netsh.exe',
  'findstr.exe',
  'tasklist.exe',
  'reg.exe',
  'net.exe',
  'where.exe',
  'tar.exe',
  'route.exe',
  'netstat.exe',
  'kubelet.exe',
  'kube-proxy.exe',
  'containerd.exe',
  'ctr.exe',
  'crictl.exe',
  'hnsdiag.exe',
];
const LINUX_NODE_BINS = [
  'sh',
  'bash',
  'ls',
  'cat',
  'echo',
  'sleep',
  'curl',
  'nc',
  'ping',
  'ip',
  'hostname',
  'whoami',
  'nslookup',
  'systemctl',
  'crictl',
  'grep',
  'ps',
];

/** The node's environment as a SYSTEM process or an SSH session sees it. */
export function nodeEnv(node: NodeRuntime, user: string): Record<string, string> {
  if (node.os === 'linux') return { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOSTNAME: node.name, HOME: '/root', USER: 'root' };
  const cn = computerName(node.name);
  const system = user.toLowerCase().startsWith('nt authority\\');
  const short = user.replace(/^.*\\/, '');
  return {
    ALLUSERSPROFILE: 'C:\\ProgramData',
    COMPUTERNAME: cn,
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
    NUMBER_OF_PROCESSORS: String(node.capacity().cpu),
    OS: 'Windows_NT',
    Path: 'C:\\Windows\\system32;C:\\Windows;C:\\Windows\\System32\\Wbem;C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\;C:\\Windows\\System32\\OpenSSH\\;C:\\Program Files\\containerd;C:\\k',
    PATHEXT: '.COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC',
    PROCESSOR_ARCHITECTURE: 'AMD64',
    ProgramData: 'C:\\ProgramData',
    ProgramFiles: 'C:\\Program Files',
    SystemDrive: 'C:',
    SystemRoot: 'C:\\Windows',
    // A SYSTEM process reports the machine account (COMPUTERNAME$).
    USERNAME: system ? `${cn}$` : short,
    USERDOMAIN: system ? 'WORKGROUP' : cn,
    USERPROFILE: system ? 'C:\\Windows\\system32\\config\\systemprofile' : `C:\\Users\\${short}`,
    TEMP: 'C:\\Windows\\TEMP',
    TMP: 'C:\\Windows\\TEMP',
    windir: 'C:\\Windows',
  };
}

export function nodeInterfaces(ctx: RuntimeContext, node: NodeRuntime): ShellHost['interfaces'] {
  const addr = node.address();
  if (node.os === 'linux')
    return [
      { name: 'eth0', address: addr, prefixLength: 24 },
      { name: 'cni0', address: addr.replace(/\.\d+$/, '.1'), prefixLength: 24 },
    ];
  const out: ShellHost['interfaces'] = [{ name: 'vEthernet (Ethernet)', address: addr, prefixLength: 24, gateway: addr.replace(/\.\d+$/, '.1') }];
  if (!ctx.broken('hns-network')) out.push({ name: 'vEthernet (nat)', address: '172.24.32.1', prefixLength: 20 });
  return out;
}

/** A node-level host: SSH sessions (Administrator) and HostProcess containers (SYSTEM). */
export function nodeHost(ctx: RuntimeContext, node: NodeRuntime, user: string, extraEnv: Record<string, string> = {}, endpoint?: Endpoint): ShellHost {
  const ep: Endpoint = endpoint ?? { kind: 'node', id: node.name, os: node.os, node: node.name, address: node.address() };
  const bins = node.os === 'windows' ? WINDOWS_NODE_BINS.filter(b => b !== 'hnsdiag.exe' || node.hasHnsdiag()) : LINUX_NODE_BINS;
  return makeHost({
    os: node.os,
    windowsBuild: node.spec.windowsBuild,
    hostname: node.name,
    user,
    env: { ...nodeEnv(node, user), ...extraEnv },
    fs: new ContainerFS(node.style, node.disk, []),
    endpoint: ep,
    dns: nodeDns(ctx, node),
    net: ctx.network,
    interfaces: nodeInterfaces(ctx, node),
    binaries: bins,
    node,
  });
}
