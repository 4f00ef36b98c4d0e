// One node's machine state: its disk, image cache, address, Windows services, HNS
// networks and compute processes (the node-level views HostProcess containers and
// SSH sessions see: docs/windows-commands.md §5, the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) node.services / node.hns-network /
// iso.hyperv-runtimeclass).

import { createHash } from 'node:crypto';
import type { NodeSpec } from '../profiles/types.ts';
import type { ComputeProcess, HnsEndpoint, HnsNetwork, ServiceState } from './shell/types.ts';
import type { RuntimeContext } from './context.ts';
import type { PodWorker } from './podWorker.ts';
import { cniNodeFacts, type CniNodeFacts } from '../nodes/cni.ts';
import { MemFS, splitPath, type PathStyle } from './fs.ts';
import { ImageCache } from './imagePull.ts';
import { EventRecorder } from './events.ts';
import { parseQuantity } from '../../util/quantity.ts';
import { nodeSpecOf } from '../nodes/nodeSpec.ts';
import { scheduleShutdown } from './reboot.ts';
import { KubeletCounters } from './kubeletMetrics.ts';
import { EvictionManager } from './eviction.ts';

export class NodeRuntime {
  readonly os: 'linux' | 'windows';
  readonly style: PathStyle;
  /** "10.0.20348" (Windows only). */
  readonly build?: string;
  readonly disk: MemFS;
  readonly images: ImageCache;
  readonly recorder: EventRecorder;
  readonly pods = new Map<string, PodWorker>();
  /** When the node last booted (sim/runtime/reboot.ts moves it). */
  bootTime = new Date();
  /** The kubelet's shutdown manager is handling a shutdown (sim/runtime/nodeShutdown.ts): new pods are rejected. */
  shuttingDown = false;
  /** Set while the node is down (rebooting or powered off): resolves when it is up again. */
  private downtime?: { up: Promise<void>; resolve: () => void };
  /** breaks: pod-ip: the endpoint address every Windows pod of the node is shown (its first pod's). */
  sharedPodIP?: string;
  /** Local groups made on the node (net localgroup /add), lower-case. */
  readonly localGroups = new Set<string>();
  /** The kubelet's container start counters (its /metrics). */
  readonly metrics: KubeletCounters;
  /** The kubelet's eviction manager for memory (sim/runtime/eviction.ts). */
  readonly eviction: EvictionManager = new EvictionManager(this);

  constructor(
    readonly spec: NodeSpec,
    readonly ctx: RuntimeContext,
  ) {
    this.os = spec.os;
    this.style = spec.os === 'windows' ? 'windows' : 'linux';
    this.build = spec.windowsBuild?.split('.').slice(0, 3).join('.');
    this.disk = new MemFS(this.os === 'windows');
    this.images = new ImageCache(ctx, () => this.reportImages(), (nodeSpecOf(ctx.profile, spec.name)?.containerRuntime ?? 'containerd://').split('://')[0]);
    this.metrics = new KubeletCounters(this.os === 'windows', () => !ctx.broken('hostprocess-metrics'));
    this.recorder = new EventRecorder(ctx.store, spec.name, undefined, line => this.serviceLog('kubelet', line, 'event.go:389'));
    this.seedDisk();
  }

  get name(): string {
    return this.spec.name;
  }

  /** shutdown.exe on the host (sim/runtime/reboot.ts). */
  shutdown(o: { reboot: boolean; delaySeconds: number }): void {
    scheduleShutdown(this, o);
  }

  /** The node goes down; the returned function brings it up again. */
  beginDowntime(): () => void {
    let resolve!: () => void;
    const up = new Promise<void>(r => (resolve = r));
    const d = { up, resolve };
    this.downtime = d;
    return () => {
      if (this.downtime === d) this.downtime = undefined;
      d.resolve();
    };
  }

  get down(): boolean {
    return this.downtime !== undefined;
  }

  /** Resolves true once the node is up (at once when it is), false when the signal aborts first. */
  async whenUp(signal: AbortSignal): Promise<boolean> {
    const d = this.downtime;
    if (!d) return true;
    if (signal.aborted) return false;
    return new Promise<boolean>(resolve => {
      const onAbort = () => resolve(false);
      signal.addEventListener('abort', onAbort, { once: true });
      void d.up.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(!signal.aborted);
      });
    });
  }

  private imagesDirty = false;
  /**
   * The node's status.images as the kubelet reports them: each image present, largest first, at
   * most 50 (nodeStatusMaxImages), names `repo@sha256:...` and `repo:tag`. Pulls in one turn of
   * the event loop make one write.
   */
  private reportImages(): void {
    if (this.imagesDirty) return;
    this.imagesDirty = true;
    setImmediate(() => {
      this.imagesDirty = false;
      const byId = new Map<string, { names: string[]; sizeBytes: number }>();
      for (const i of this.images.list()) {
        const e = byId.get(i.imageID) ?? { names: [i.imageID], sizeBytes: i.manifest.size ?? 0 };
        if (!e.names.includes(i.image)) e.names.push(i.image);
        byId.set(i.imageID, e);
      }
      const images = [...byId.values()].sort((a, b) => b.sizeBytes - a.sizeBytes || a.names[0].localeCompare(b.names[0])).slice(0, 50);
      try {
        this.ctx.store.mutate(
          'nodes',
          undefined,
          this.name,
          o => {
            (o.status as { images?: unknown }).images = images;
          },
          { skipAdmission: true },
        );
      } catch {
        /* the node is gone (the sim is stopping) */
      }
    });
  }
  /** What the profile's CNI set up on this node (sim/nodes/cni.ts). */
  cni(): CniNodeFacts {
    const addr = this.address();
    const podCIDR = (this.ctx.store.tryGet('nodes', undefined, this.name)?.spec as { podCIDR?: string } | undefined)?.podCIDR;
    return cniNodeFacts(this.ctx.profile, {
      nodeName: this.name,
      internalIP: addr,
      podCIDR: podCIDR ?? `${addr.split('.').slice(0, 3).join('.')}.0/24`,
      os: this.os,
    });
  }
  address(): string {
    return this.ctx.network.nodeAddress(this.name);
  }

  /**
   * A line of a Windows service's log file, C:\\var\\log\\<service>\\<service>.log, in klog's format
   * (Lmmdd hh:mm:ss.uuuuuu pid file:line] msg; https://github.com/kubernetes/klog): where the
   * kubelet's node log query and must-gather read them (lib/run/diagnostics/nodeLogs.ts cites).
   */
  serviceLog(service: 'kubelet' | 'containerd' | 'kube-proxy', msg: string, at = '', severity: 'I' | 'W' | 'E' = 'I'): void {
    if (this.os !== 'windows') return;
    const d = new Date();
    const two = (n: number) => String(n).padStart(2, '0');
    const head = `${severity}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${String(d.getUTCMilliseconds() * 1000).padStart(6, '0')}`;
    const pid = { kubelet: 4624, containerd: 2312, 'kube-proxy': 4880 }[service];
    // containerd logs through logrus (time="RFC 3339" level=... msg=...), not klog.
    const level = { I: 'info', W: 'warning', E: 'error' }[severity];
    const line =
      service === 'containerd' ? `time="${d.toISOString()}" level=${level} msg=${JSON.stringify(msg)}` : `${head} ${String(pid).padStart(7)} ${at}] ${msg}`;
    this.disk.write(splitPath(`C:\\var\\log\\${service}\\${service}.log`, this.style), `${line}\r\n`, { append: true, mkdirs: true });
  }

  private seedDisk(): void {
    const p = (s: string) => splitPath(s, this.style);
    if (this.os === 'windows') {
      for (const d of [
        'C:\\Windows\\System32',
        'C:\\k',
        'C:\\var\\lib\\kubelet\\pods',
        'C:\\var\\log\\kubelet',
        'C:\\ProgramData\\containerd',
        'C:\\Users\\Administrator',
      ])
        this.disk.mkdir(p(d));
      for (const f of ['kubelet.exe', 'kube-proxy.exe', 'containerd.exe', 'containerd-shim-runhcs-v1.exe', 'ctr.exe', 'crictl.exe'])
        this.disk.write(p(`C:\\k\\${f}`), '');
      const cni = this.cni();
      this.disk.write(p(cni.confFile), cni.conf, { mkdirs: true });
      this.serviceLog('kubelet', '"Version info"', 'server.go:487');
      this.serviceLog('containerd', 'starting containerd', 'main.go:176');
      this.serviceLog('kube-proxy', '"Version info"', 'server.go:484');
      this.disk.write(p('C:\\Windows\\System32\\drivers\\etc\\hosts'), '# Copyright (c) 1993-2009 Microsoft Corp.\r\n#\r\n', { mkdirs: true });
    } else {
      for (const d of ['/var/lib/kubelet/pods', '/var/log/pods', '/etc/kubernetes', '/tmp']) this.disk.mkdir(p(d));
      this.disk.write(p('/etc/hostname'), `${this.name}\n`);
      this.disk.write(p('/etc/os-release'), 'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\n');
    }
  }

  /** Allocatable CPU (cores) and memory (bytes): capacity minus the kubelet's reservations. */
  allocatable(): { cpu: number; memory: number } {
    const cap = this.capacity();
    return {
      cpu: Math.max(cap.cpu - (parseQuantity(this.spec.reservedCpu) ?? 0), 0),
      memory: Math.max(cap.memory - (parseQuantity(this.spec.reservedMemory) ?? 0), 0),
    };
  }

  capacity(): { cpu: number; memory: number } {
    return { cpu: parseQuantity(this.spec.capacity?.cpu) ?? 4, memory: parseQuantity(this.spec.capacity?.memory) ?? 16 * 2 ** 30 };
  }

  /**
   * Windows services on the node (the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md): kubelet and kube-proxy run as services). kube-proxy
   * is a service unless the profile's layout runs it only as a HostProcess DaemonSet, named as
   * the provider names it (AKS: kubeproxy).
   */
  services(): ServiceState[] {
    const stopped = this.ctx.broken('node-services');
    const layout = this.ctx.profile.windowsLayout;
    const svc = (name: string, displayName: string, _pid: number, breakable = false): ServiceState => ({
      name,
      displayName,
      status: breakable && stopped ? 'Stopped' : 'Running',
      pid: breakable && stopped ? 0 : servicePid(this.spec.name, name),
    });
    const proxyName = layout?.kubeProxyServiceName ?? 'kube-proxy';
    const out = [
      svc('containerd', 'containerd container runtime', 2312),
      svc('hns', 'Host Network Service', 1876),
      svc('kubelet', 'kubelet', 4624, true),
      ...(layout?.kubeProxy === 'daemonset' ? [] : [svc(proxyName, proxyName, 4880, true)]),
      svc('vmcompute', 'Hyper-V Host Compute Service', 1544),
      svc('W32Time', 'Windows Time', 1320),
      svc('WinRM', 'Windows Remote Management (WS-Management)', 1408),
    ];
    if (this.spec.ssh) out.push(svc('sshd', 'OpenSSH SSH Server', 3012));
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Get-HnsNetwork is there (hns.psm1 imported): not on every provider's nodes (AKS downloads it). */
  hasHnsModule(): boolean {
    return this.ctx.profile.windowsLayout?.hnsModule !== false;
  }
  hasHnsdiag(): boolean {
    return this.ctx.profile.windowsLayout?.hnsdiag !== false;
  }

  /** The CNI's HNS network per profile.network.mode, plus the default nat network (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/) troubleshooting). */
  hnsNetworks(): HnsNetwork[] {
    if (this.ctx.broken('hns-network')) return [];
    const addr = this.address();
    const subnet = addr.split('.').slice(0, 3).join('.') + '.0/24';
    const { hnsNetwork: name, hnsType: type } = this.cni();
    const cni: HnsNetwork = { id: guid(`${this.name}-${name}`), name, type, subnets: [subnet], managementIP: addr };
    return [{ id: guid(`${this.name}-nat`), name: 'nat', type: 'nat', subnets: ['172.24.32.0/20'] }, cni];
  }

  /** One endpoint on the CNI's network per pod with its own address (hostNetwork and HostProcess pods have none). */
  hnsEndpoints(): HnsEndpoint[] {
    const cni = this.hnsNetworks().find(n => n.type !== 'nat');
    if (!cni) return [];
    const out: HnsEndpoint[] = [];
    for (const w of this.pods.values()) {
      if (!w.sandboxReady || w.hostProcess || w.hostNetwork || !w.ip) continue;
      const id = guid(`${w.uid}-endpoint`);
      const mac = `00-15-5D-${id.slice(0, 2)}-${id.slice(2, 4)}-${id.slice(4, 6)}`.toUpperCase();
      out.push({ id, name: `${id}_${cni.name}`, ipAddress: w.ip, macAddress: mac, type: cni.type, virtualNetwork: cni.id, virtualNetworkName: cni.name });
    }
    return out;
  }

  /** HCS compute systems: one Container per running container, one VirtualMachine per Hyper-V pod (hyperv.go). */
  computeProcesses(): ComputeProcess[] {
    const out: ComputeProcess[] = [];
    for (const w of this.pods.values()) {
      if (!w.sandboxReady || w.hostProcess) continue;
      if (w.hyperv && !this.ctx.broken('hyperv-runtimeclass'))
        out.push({ id: guid(`${w.uid}-uvm`).toUpperCase(), owner: 'containerd-shim-runhcs-v1.exe', type: 'VirtualMachine', isTemplate: false });
      for (const id of w.runningContainerIDs()) out.push({ id, owner: 'containerd-shim-runhcs-v1.exe', type: 'Container', isTemplate: false });
    }
    return out;
  }
}

/** A stable GUID-shaped id from a seed string. */
export function guid(seed: string): string {
  let h = 0x811c9dc5;
  const hex: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const ch of seed + round) {
      h ^= ch.charCodeAt(0);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    hex.push(h.toString(16).padStart(8, '0'));
  }
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/**
 * A running service's PID on this node: Windows PIDs are multiples of 4 and differ from node to
 * node and boot to boot (a real kubelet's was 1060, ERROR_SERVICE_DOES_NOT_EXIST's number); stable
 * for one node here, so repeated queries agree.
 */
export function servicePid(node: string, service: string): number {
  const h = createHash('sha256').update(`${node}/${service}`).digest();
  return 400 + (h.readUInt32BE(0) % 5000) * 4;
}
