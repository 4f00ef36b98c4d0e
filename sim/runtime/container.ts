// One container of a pod: image pull, config (env, mounts, user), its main process,
// its servers, its log, and the state the kubelet reports (containerStatuses).
// The restart loop lives in podWorker.ts; this file runs one instance at a time.

import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { V1Container, V1ContainerState } from '@kubernetes/client-node';
import type { PodWorker } from './podWorker.ts';
import type { ShellHost } from './shell/types.ts';
import { ContainerLog } from './logs.ts';
import { ContainerFS, MemFS, splitPath } from './fs.ts';
import { containerMounts } from './volumes.ts';
import { ContainerConfigError, resolveEnv } from './env.ts';
import { defaultPullPolicy, goDuration, PullError, type PulledImage, type PullPolicy } from './imagePull.ts';
import { builtinFor, containerArgv, goFlags } from './process.ts';
import { isHostEntrypoint, runOnHost } from './hostProcess.ts';
import { nodeSpecOf } from '../nodes/nodeSpec.ts';
import { hostProcessBindMounts, runAsNonRootAnyCase } from '../nodes/versions.ts';
import { normWin, resolveLaunch, type Launch } from './hostProcessLaunch.ts';
import { DIRECTX_RESOURCE } from '../nodes/nodeObject.ts';
import { computerName, localGroupName, makeHost, nodeEnv, nodeInterfaces, podNetwork, validWindowsUser } from './shellHost.ts';
import {
  iisServer,
  netexecServer,
  netexecUdpReply,
  netexecDialer,
  startUdp,
  nginxServer,
  redisConnection,
  serveHostname,
  startServer,
  testWebserver,
  type ServerHandle,
} from './servers.ts';
import { parseQuantity } from '../../util/quantity.ts';

/** The runtime refused to create the container: waiting reason CreateContainerError, retried. */
export class CreateContainerError extends Error {}

/** The host's tools a HostProcess container finds (System32, PowerShell). */
const HOST_PROCESS_NODE_BINS = [
  'cmd.exe',
  'powershell.exe',
  'curl.exe',
  'sc.exe',
  'ipconfig.exe',
  'hostname.exe',
  'whoami.exe',
  'nslookup.exe',
  'ping.exe',
  'netsh.exe',
  'findstr.exe',
  'net.exe',
  'shutdown.exe',
];

export type ExitReason = 'Completed' | 'Error' | 'OOMKilled' | 'StartError' | 'ContainerCannotRun' | 'Unknown';

export interface Exit {
  exitCode: number;
  reason: ExitReason;
  message?: string;
  startedAt: Date;
  finishedAt: Date;
  containerID: string;
}

/** Baseline CPU of an idle container (millicores), so stats are never all-zero. */
const IDLE_MILLICORES = { windows: 2, linux: 1 };
const IDLE_MEMORY = { windows: 48 * 2 ** 20, linux: 4 * 2 ** 20 };

export class ContainerRunner {
  state: V1ContainerState = { waiting: { reason: 'ContainerCreating' } };
  lastState: V1ContainerState = {};
  restartCount = 0;
  ready = false;
  started = false;
  containerID?: string;
  pulled?: PulledImage;
  log = new ContainerLog();
  prevLog?: ContainerLog;
  host?: ShellHost;
  /** Ports the current instance listens on (for the shared-netns break). */
  readonly ports = new Set<number>();
  private servers: ServerHandle[] = [];
  private proc?: AbortController;
  private killReason?: { reason: ExitReason; exitCode: number };
  /** CPU accounting: demand from burners, integrated into usageCoreNanoSeconds. */
  private burns = new Set<number>();
  private cpuNanoSeconds = 0;
  private cpuSampledAt = Date.now();
  private memoryBytes = 0;
  private instanceRan = false;
  /** Set while the startup probe has not passed yet. */
  startupPassed = true;

  constructor(
    readonly spec: V1Container,
    readonly w: PodWorker,
    readonly init: boolean,
  ) {}

  get name(): string {
    return this.spec.name;
  }
  get running(): boolean {
    return !!this.state.running;
  }
  get windows(): boolean {
    return this.w.windows;
  }

  limitMillicores(): number | undefined {
    const cpu = parseQuantity(this.spec.resources?.limits?.cpu as string | undefined);
    return cpu === undefined ? undefined : Math.round(cpu * 1000);
  }
  limitMemory(): number | undefined {
    return parseQuantity(this.spec.resources?.limits?.memory as string | undefined);
  }

  /** Current CPU rate in millicores: idle + burners, capped at the limit (unless breaks: cpu-limit). */
  cpuMillicores(): number {
    if (!this.running) return 0;
    const demand = [...this.burns].reduce((a, b) => a + b, 0) + IDLE_MILLICORES[this.windows ? 'windows' : 'linux'];
    const limit = this.limitMillicores();
    const cap = limit !== undefined && !this.w.ctx.broken('cpu-limit', this.windows) ? limit : this.w.node.capacity().cpu * 1000;
    return Math.min(demand, cap);
  }

  /** Cumulative CPU time (ns), integrated at the current rate. */
  cpuUsageNanoSeconds(): number {
    const now = Date.now();
    this.cpuNanoSeconds += this.cpuMillicores() * 1e6 * ((now - this.cpuSampledAt) / 1000);
    this.cpuSampledAt = now;
    return Math.round(this.cpuNanoSeconds);
  }

  /** Working set: idle + allocations; Windows pages above the limit instead of growing (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/)). */
  workingSetBytes(): number {
    if (!this.running) return 0;
    const ws = IDLE_MEMORY[this.windows ? 'windows' : 'linux'] + this.memoryBytes;
    const limit = this.limitMemory();
    return limit !== undefined ? Math.min(ws, limit) : ws;
  }

  event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.w.node.recorder.pod(this.w.pod, type, reason, message, this.name, this.init);
  }

  /** Pulls the image per policy, recording the kubelet's events. Throws PullError. */
  async pull(signal: AbortSignal): Promise<PulledImage> {
    const image = this.spec.image ?? '';
    const policy = (this.spec.imagePullPolicy as PullPolicy | undefined) ?? defaultPullPolicy(image);
    const want = this.w.platform(this.init ? 'init' : 'app');
    if (policy !== 'Always' && this.w.node.images.isPresent(image, want)) {
      const got = await this.w.node.images.pull(image, policy, want, signal);
      this.event('Normal', 'Pulled', `Container image "${image}" already present on machine`);
      this.pulled = got;
      return got;
    }
    if (policy !== 'Never') this.event('Normal', 'Pulling', `Pulling image "${image}"`);
    const got = await this.w.node.images.pull(image, policy, want, signal);
    const ms = got.pulledInMs ?? 0;
    this.event(
      'Normal',
      'Pulled',
      `Successfully pulled image "${image}" in ${goDuration(ms)} (${goDuration(ms)} including waiting). Image size: ${got.manifest.size} bytes.`,
    );
    this.pulled = got;
    return got;
  }

  /** The Windows user the container runs as: container, then pod runAsUserName, then the image's USER. */
  windowsUser(): string {
    const c = this.spec.securityContext?.windowsOptions?.runAsUserName;
    const p = this.w.pod.spec?.securityContext?.windowsOptions?.runAsUserName;
    if (this.w.ctx.broken('run-as-username', this.windows) || (this.w.wantsHostProcess && !this.w.hostProcess))
      return this.pulled?.manifest.user ?? 'ContainerUser';
    // breaks: username-precedence: the pod's runAsUserName wins over the container's.
    const named = this.w.ctx.broken('username-precedence', this.windows) ? (p ?? c) : (c ?? p);
    // breaks: unknown-username: a name that is no account runs as the image user instead of failing.
    if (named && this.windows && !this.w.wantsHostProcess && !validWindowsUser(named, false) && this.w.ctx.broken('unknown-username'))
      return this.pulled?.manifest.user ?? 'ContainerUser';
    // A local group (containerd 1.7+): a temporary account of the node in that group, named after
    // the container as hcsshim names it; the start check below refuses it where it cannot run.
    if (named && this.w.hostProcess && localGroupName(named)) return `${computerName(this.w.node.name)}\\${this.accountId}`;
    if (named) return named;
    if (this.w.hostProcess) return 'NT AUTHORITY\\SYSTEM';
    // Linux-only runAsUser has no Windows meaning and is ignored (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/)); lifted, the
    // sim maps a non-root UID to the unprivileged account, so the effect is observable.
    const uid = this.spec.securityContext?.runAsUser ?? this.w.pod.spec?.securityContext?.runAsUser;
    if (this.windows && uid !== undefined && uid !== 0 && !this.w.ctx.limited('linuxFieldsIgnored', true)) return 'ContainerUser';
    return this.pulled?.manifest.user ?? 'ContainerUser';
  }

  /**
   * The kubelet's Windows runAsNonRoot check before the container is created
   * (pkg/kubelet/kuberuntime/security_context_windows.go verifyRunAsNonRoot): with runAsNonRoot
   * true, an effective runAsUserName of ContainerAdministrator is refused (CreateContainerConfigError).
   * Kubelets before the CVE-2021-25749 fix compare case-sensitively. The image-user branch is not
   * played: Windows base images rarely name ContainerAdministrator in their config
   * (https://github.com/kubernetes/kubernetes/issues/112469).
   */
  private verifyRunAsNonRoot(): void {
    const pod = this.w.pod;
    const nonRoot = this.spec.securityContext?.runAsNonRoot ?? pod.spec?.securityContext?.runAsNonRoot;
    // breaks: run-as-nonroot: the kubelet skips the check.
    if (nonRoot !== true || this.w.ctx.broken('run-as-nonroot')) return;
    const meta = pod.metadata!;
    // breaks: run-as-user-nonroot: the Linux-only runAsUser is held against the container, not ignored.
    const uid = this.spec.securityContext?.runAsUser ?? pod.spec?.securityContext?.runAsUser;
    if (uid !== undefined && this.w.ctx.broken('run-as-user-nonroot'))
      throw new ContainerConfigError(
        `runAsUser (${uid}) with runAsNonRoot cannot be verified on Windows (pod: "${meta.name}_${meta.namespace}(${meta.uid})", container: ${this.name})`,
      );
    const name = this.spec.securityContext?.windowsOptions?.runAsUserName ?? pod.spec?.securityContext?.windowsOptions?.runAsUserName;
    if (name === undefined) return;
    const kubelet = nodeSpecOf(this.w.ctx.profile, this.w.node.name)?.kubeletVersion ?? this.w.ctx.profile.kubernetesVersion;
    const admin = runAsNonRootAnyCase(kubelet) ? name.toLowerCase() === 'containeradministrator' : name === 'ContainerAdministrator';
    if (!admin) return;
    throw new ContainerConfigError(
      `container's runAsUserName (${name}) which will be regarded as root identity and will break non-root policy (pod: "${meta.name}_${meta.namespace}(${meta.uid})", container: ${this.name})`,
    );
  }

  /**
   * hcsshim's logon of a HostProcess container's user when its task starts
   * (https://github.com/microsoft/hcsshim/blob/main/internal/jobcontainers/logon.go processToken,
   * called from jobcontainer.go CreateProcess): a local group the node has (hcsshim 0.10, containerd
   * 1.7+) gets a temporary account in it; any other name is logged on as a user, without a
   * password, which only the NT AUTHORITY service accounts pass (SYSTEM, LOCAL SERVICE, NETWORK
   * SERVICE; ContainerUser and ContainerAdministrator fall back to the runtime's token). A name
   * that is no account, or a group below containerd 1.7 (hcsshim 0.9 knows no groups), fails the
   * start. The words: CreateProcess's wrapping in hcsshim's source, Windows' text for
   * ERROR_LOGON_FAILURE (0x52e, as real-outputs/48 shows it) and containerd's start wrapping as
   * real-outputs/29 shows it for the same CreateProcess; no published sample has all three at once.
   * Undefined: it runs.
   */
  private hostProcessLogonRefusal(): string | undefined {
    const w = this.w;
    if (!w.hostProcess || w.ctx.broken('run-as-username', true)) return undefined;
    const named = this.spec.securityContext?.windowsOptions?.runAsUserName ?? w.pod.spec?.securityContext?.windowsOptions?.runAsUserName;
    if (!named) return undefined;
    const refusal = `failed to start containerd task "${this.name}": failed to create user process token: failed to logon user: The user name or password is incorrect.: unknown`;
    if (!localGroupName(named)) return validWindowsUser(named, true) ? undefined : refusal;
    const rt = nodeSpecOf(w.ctx.profile, w.node.name)?.containerRuntime;
    const groups = rt && hostProcessBindMounts({ containerRuntime: rt }) && w.node.localGroups.has(named.toLowerCase());
    return groups ? undefined : refusal;
  }

  /**
   * The GPU the DirectX device plugin gives a Windows container that limits microsoft.com/directx,
   * on a node that advertises it (addons.directxDevicePlugin, or the node's extendedResources).
   * breaks: directx-device: the plugin allocates nothing.
   */
  private directxGpu(): { name: string; vendorId: string } | undefined {
    const w = this.w;
    const wanted = parseQuantity(this.spec.resources?.limits?.[DIRECTX_RESOURCE] ?? this.spec.resources?.requests?.[DIRECTX_RESOURCE]) ?? 0;
    const spec = nodeSpecOf(w.ctx.profile, w.node.name);
    const has = w.ctx.profile.addons.directxDevicePlugin || spec?.extendedResources?.[DIRECTX_RESOURCE] !== undefined;
    if (!w.windows || wanted <= 0 || !has || w.ctx.broken('directx-device')) return undefined;
    return { name: 'NVIDIA Tesla T4', vendorId: '0x10DE' };
  }

  /** The HostProcess container's mount point (CONTAINER_SANDBOX_MOUNT_POINT, trailing backslash), set by configure(). */
  private sandboxMount = 'C:\\hpc\\';

  /**
   * hcsshim's CreateProcess for a HostProcess container: the executable found from the command
   * line and working directory (hostProcessLaunch.ts), and the user logged on. hcsshim 0.9
   * (containerd 1.6) finds the executable first; from hcsshim 0.10 (containerd 1.7) it logs on first
   * (jobcontainer.go in either release), so a missing executable run as an unknown user fails with
   * the one or the other.
   */
  private hostProcessStart(host: ShellHost, argv: string[]): Launch {
    const w = this.w;
    const rt = nodeSpecOf(w.ctx.profile, w.node.name)?.containerRuntime;
    const logonFirst = rt ? hostProcessBindMounts({ containerRuntime: rt }) : true;
    const bins = new Set(HOST_PROCESS_NODE_BINS);
    const image = new Set(this.pulled!.manifest.binaries.filter(b => b.includes('.')).map(b => b.toLowerCase()));
    const launch = () =>
      resolveLaunch(this.name, {
        argv,
        workingDir: this.spec.workingDir,
        mount: this.sandboxMount,
        broken: w.ctx.broken('hostprocess-command-paths'),
        exists: path => {
          const n = normWin(path);
          const base = n.replace(/^.*\\/, '');
          const dir = n.slice(0, -base.length - 1);
          if (dir === 'c:\\windows\\system32\\windowspowershell\\v1.0') return base === 'powershell.exe';
          if (dir === 'c:\\windows\\system32') return bins.has(base) && base !== 'powershell.exe';
          // The image's own executables (pwsh.exe of the sigwindowstools images...) at its root.
          if (dir === normWin(this.sandboxMount).replace(/\\$/, '')) if (image.has(base)) return true;
          const at = path.replace(/\//g, '\\').replace(/\\{2,}/g, '\\');
          return host.fs.exists(at) && !host.fs.isDir(at);
        },
      });
    const logon = (): Launch | undefined => {
      const refusal = this.hostProcessLogonRefusal();
      return refusal ? { ok: false, message: refusal } : undefined;
    };
    if (logonFirst) return logon() ?? launch();
    const l = launch();
    return l.ok ? (logon() ?? l) : l;
  }

  /** The temporary account's name: the container's ID, cut as hcsshim cuts it (20 characters). */
  private readonly accountId = randomBytes(10).toString('hex');

  /**
   * The AD domain of the container's gMSA credential spec (the container's, else the pod's), which
   * the kubelet passes to the runtime as is (upstream test/e2e/windows/gmsa_kubelet.go): its
   * DomainJoinConfig.DnsName. A spec that is not JSON gives no domain.
   */
  private gmsaDomain(): string | undefined {
    // breaks: gmsa-credspec: the runtime drops the credential specs.
    if (this.w.ctx.broken('gmsa-credspec')) return undefined;
    const spec = this.spec.securityContext?.windowsOptions?.gmsaCredentialSpec ?? this.w.pod.spec?.securityContext?.windowsOptions?.gmsaCredentialSpec;
    if (!spec) return undefined;
    try {
      const dns = (JSON.parse(spec) as { DomainJoinConfig?: { DnsName?: unknown } }).DomainJoinConfig?.DnsName;
      return typeof dns === 'string' && dns ? dns : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether the container sees the host (its services, HNS, compute processes): HostProcess
   * containers do; `privileged: true` is ignored on Windows (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): no privileged
   * containers), unless the profile lifts that limitation.
   */
  private seesHost(): boolean {
    if (this.w.hostProcess) return true;
    return this.windows && !!this.spec.securityContext?.privileged && !this.w.ctx.limited('privileged', true);
  }

  /** Builds env, file system and ShellHost for a new instance. Throws ContainerConfigError / CreateContainerError. */
  configure(): ShellHost {
    const w = this.w;
    const limits = this.spec.resources?.limits ?? {};
    if (w.ctx.broken('resource-limits', this.windows) && Object.keys(limits).length)
      throw new CreateContainerError('failed to create containerd container: hcs::CreateComputeSystem: The parameter is incorrect.: unknown');
    const m = this.pulled!.manifest;
    const k8sEnv = resolveEnv({
      store: w.ctx.store,
      pod: w.pod,
      container: this.spec,
      podIP: w.ip ?? '',
      hostIP: w.hostIP,
      allocatable: w.node.allocatable(),
      brokenSecretEnv: w.ctx.broken('secret-env', this.windows),
      brokenConfigMapEnv: w.ctx.broken('configmap-env', this.windows),
    });
    const style = w.node.style;
    const mounts = containerMounts(this.spec, w.volumes ?? new Map(), {
      style,
      limited: k => w.ctx.limited(k, this.windows),
      broken: k => w.ctx.broken(k, this.windows),
    });
    let env: Record<string, string>;
    let user: string;
    let fs: ContainerFS;
    if (this.windows) {
      this.verifyRunAsNonRoot();
      user = this.windowsUser();
      if (w.hostProcess) {
        // HostProcess volumes live under the sandbox mount point (CONTAINER_SANDBOX_MOUNT_POINT):
        // containerd 1.6 links them under the container's volume (C:\C\<id>\); from 1.7 the view is
        // bound at C:\hpc\ and each volume at its mountPath as well (versions.ts hostProcessBindMounts).
        const versions = nodeSpecOf(w.ctx.profile, w.node.name);
        const bind = versions?.containerRuntime ? hostProcessBindMounts({ containerRuntime: versions.containerRuntime }) : true;
        const sandbox = bind ? 'C:\\hpc' : `C:\\C\\${w.sandboxID}`;
        const root = splitPath(sandbox, 'windows');
        // breaks: hostprocess-volumes: the runtime sets up none of the container's volume mounts.
        const shown = w.ctx.broken('hostprocess-volumes') ? [] : mounts;
        // The container's own volume (its image's files) is at the sandbox root, private to it.
        const own = new MemFS(true);
        own.mkdir(['c:']);
        const volume = { at: root, fs: own, base: ['c:'], readOnly: false, name: 'container-volume' };
        const placed = [volume, ...shown.map(m => ({ ...m, at: [...root, ...m.at.slice(1)] })), ...(bind ? shown : [])];
        // The image's busybox applets are in its bin\ (images.ts: the e2e images' C:\bin), as .exe files.
        for (const b of m.binaries) if (!b.includes('.')) own.write(['c:', 'bin', `${b}.exe`], '', { mkdirs: true });
        this.sandboxMount = `${sandbox}\\`;
        env = { ...nodeEnv(w.node, user), CONTAINER_SANDBOX_MOUNT_POINT: this.sandboxMount, ...k8sEnv };
        fs = new ContainerFS('windows', w.node.disk, placed);
      } else {
        const short = user.replace(/^.*\\/, '');
        env = {};
        for (const [k, v] of Object.entries(m.env)) env[k] = v.replace('{user}', short).replace('{cpus}', String(this.cpuCount()));
        env.COMPUTERNAME = computerName(w.pod.metadata!.name!);
        env.USERNAME = short;
        // K8s env wins over the image's (docker -e semantics; §8 leaves USERNAME UNCONFIRMED).
        Object.assign(env, k8sEnv);
        // The DirectX device plugin's Allocate answer: the GPU's name in the env (upstream device_plugin.go reads it).
        const gpu = this.directxGpu();
        if (gpu) env.DIRECTX_GPU_Name = gpu.name;
        fs = new ContainerFS(
          'windows',
          this.rootfs(m, short),
          mounts,
          undefined,
          // readOnlyRootFilesystem is a Windows limitation (ignored) unless lifted; no POSIX modes unless lifted.
          {
            modes: !w.ctx.limited('secretDefaultMode', true),
            readOnlyRoot: !!this.spec.securityContext?.readOnlyRootFilesystem && !w.ctx.limited('readOnlyRootFilesystem', true),
            // breaks: volume-file-acl: the files of the pod's volumes lack the Users rule.
            volumeAclWithoutUsers: w.ctx.broken('volume-file-acl'),
          },
        );
      }
    } else {
      user = this.spec.securityContext?.runAsUser !== undefined ? String(this.spec.securityContext.runAsUser) : m.user;
      env = { ...m.env, HOSTNAME: w.pod.metadata!.name!, HOME: user === 'root' ? '/root' : '/', ...k8sEnv };
      fs = new ContainerFS('linux', this.rootfs(m, user), mounts, undefined, {
        modes: true,
        readOnlyRoot: !!this.spec.securityContext?.readOnlyRootFilesystem,
      });
    }
    const endpoint = w.endpoint();
    const sharedBroken = w.ctx.broken('shared-netns', this.windows);
    const net = podNetwork(
      w.ctx.network,
      () => w.endpoint(),
      port => w.siblingListens(this, port),
      sharedBroken,
    );
    const interfaces = w.hostNetwork
      ? nodeInterfaces(w.ctx, w.node)
      : this.windows
        ? [
            {
              name: `vEthernet (${w.sandboxID.slice(0, 12)}_eth0)`,
              address: w.adapterIP(),
              prefixLength: 24,
              gateway: w.adapterIP().replace(/\.\d+$/, '.1'),
              dnsSuffix: w.dns().searches[0],
              ...(w.ipv6() ? { address6: w.ipv6() } : {}),
            },
          ]
        : [
            { name: 'lo', address: '127.0.0.1', prefixLength: 8 },
            { name: 'eth0', address: w.ip ?? '', prefixLength: 24, gateway: (w.ip ?? '').replace(/\.\d+$/, '.1') },
          ];
    const binaries = w.hostProcess
      ? [
          ...m.binaries,
          // The image's busybox applets, as the .exe files of its bin\ (see configure()).
          ...m.binaries.filter(b => !b.includes('.')).map(b => `${b}.exe`),
          ...HOST_PROCESS_NODE_BINS,
          ...(w.node.hasHnsdiag() ? ['hnsdiag.exe'] : []),
        ]
      : m.binaries;
    const host = makeHost({
      os: this.windows ? 'windows' : 'linux',
      windowsBuild: this.windows
        ? w.hostProcess || !m.build
          ? w.node.spec.windowsBuild
          : `${m.build}.${w.node.spec.windowsBuild?.split('.')[3] ?? '0'}`
        : undefined,
      hostname: w.hostNetwork ? w.node.name : w.pod.metadata!.name!,
      user,
      env,
      fs,
      endpoint,
      dns: w.dns(),
      net,
      interfaces,
      binaries,
      node: this.seesHost() ? w.node : undefined,
      domain: this.windows ? this.gmsaDomain() : undefined,
      gpu: this.windows ? this.directxGpu() : undefined,
      resources: {
        burnCpu: (mc, ms, signal) => this.burnCpu(mc, ms, signal),
        allocateMemory: bytes => this.allocateMemory(bytes),
        pace: (seconds, signal) => w.ctx.sleep(seconds * 1000 * (w.ctx.profile.evictionScale ?? 0.02), signal),
      },
      startServer: argv => this.startServerFor(argv),
    });
    return host;
  }

  private cpuCount(): number {
    const l = this.limitMillicores();
    return l ? Math.max(1, Math.ceil(l / 1000)) : this.w.node.capacity().cpu;
  }

  /** The image's files plus standard directories, as a fresh writable layer. */
  private rootfs(m: PulledImage['manifest'], user: string): MemFS {
    const fs = new MemFS(this.windows);
    const style = this.windows ? 'windows' : 'linux';
    const p = (s: string) => splitPath(s, style);
    if (this.windows) {
      for (const d of ['C:\\Windows\\System32', 'C:\\Program Files', 'C:\\ProgramData', `C:\\Users\\${user}`, 'C:\\Users\\Public']) fs.mkdir(p(d));
      fs.write(p('C:\\Windows\\System32\\drivers\\etc\\hosts'), '# Copyright (c) 1993-2009 Microsoft Corp.\r\n', { mkdirs: true });
    } else {
      for (const d of ['/bin', '/etc', '/tmp', '/root', '/var', '/proc']) fs.mkdir(p(d));
      const w = this.w;
      fs.write(p('/etc/hostname'), `${w.pod.metadata!.name}\n`);
      fs.write(
        p('/etc/hosts'),
        `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n${w.ip}\t${w.pod.metadata!.name}\n`,
      );
      const dns = w.dns();
      fs.write(
        p('/etc/resolv.conf'),
        `${dns.searches.length ? `search ${dns.searches.join(' ')}\n` : ''}${dns.nameservers.map(n => `nameserver ${n}\n`).join('')}options ndots:${dns.ndots}\n`,
      );
      fs.write(p('/etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n');
    }
    for (const [path, content] of Object.entries(m.files ?? {})) fs.write(p(path), content, { mkdirs: true });
    return fs;
  }

  private async burnCpu(millicores: number, ms: number, signal: AbortSignal): Promise<void> {
    this.cpuUsageNanoSeconds();
    const token = millicores + Math.random() * 1e-6;
    this.burns.add(token);
    try {
      await this.w.ctx.sleep(ms, signal);
    } finally {
      this.cpuUsageNanoSeconds();
      this.burns.delete(token);
    }
  }

  /**
   * Memory over the limit: Linux (and Windows with memoryOOMKill lifted) kills the
   * container (OOMKilled, 137); Windows pages instead (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/), the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) res.memory-no-oomkill).
   */
  private allocateMemory(bytes: number): { ok: boolean; oomKilled: boolean } {
    this.memoryBytes += bytes;
    // The node's memory.available moved: the eviction manager looks (sim/runtime/eviction.ts).
    this.w.node.eviction.poke();
    const limit = this.limitMemory();
    const total = IDLE_MEMORY[this.windows ? 'windows' : 'linux'] + this.memoryBytes;
    if (limit === undefined || total <= limit) return { ok: true, oomKilled: false };
    if (this.windows && this.w.ctx.limited('memoryOOMKill', true)) return { ok: true, oomKilled: false };
    this.kill({ reason: 'OOMKilled', exitCode: 137 });
    return { ok: false, oomKilled: true };
  }

  /** Servers the interpreter asks for (agnhost netexec / test-webserver / serve-hostname ...). */
  async startServerFor(argv: string[]): Promise<void> {
    const args = argv[0]
      ?.toLowerCase()
      .replace(/^.*[\\/]/, '')
      .startsWith('agnhost')
      ? argv.slice(1)
      : argv;
    const sub = args[0];
    const f = goFlags(args.slice(1));
    const podName = this.w.pod.metadata!.name!;
    switch (sub) {
      case 'netexec': {
        const port = Number(f['http-port'] ?? 8080);
        const ctx = {
          podName,
          exit: (code: number) => this.kill({ reason: code === 0 ? 'Completed' : 'Error', exitCode: code }),
          shell: (cmd: string) => this.shell(cmd),
          dial: netexecDialer(() => this.host),
        };
        await this.listen(port, netexecServer(ctx));
        const udp = Number(f['udp-port'] ?? 8081);
        if (udp > 0) {
          const h = await startUdp(this.w.ctx.network, this.w.podAddress(), udp, (msg, rinfo) => netexecUdpReply(ctx, msg, rinfo));
          if (h) this.servers.push(h);
        }
        return;
      }
      case 'test-webserver':
        await this.listen(
          Number(f['port'] ?? 80),
          testWebserver({
            podName,
            readFile: path => {
              try {
                return this.host?.fs.read(path);
              } catch {
                return undefined;
              }
            },
          }),
        );
        return;
      case 'serve-hostname':
        await this.listen(Number(f['port'] ?? 9376), serveHostname(podName));
        return;
      case 'porter':
      case 'liveness':
      case 'grpc-health-checking':
        await this.listen(Number(f['port'] ?? f['http-port'] ?? 8080), netexecServer({ podName }));
        return;
      default:
        throw new Error(`unknown server "${sub}"`);
    }
  }

  private async shell(cmd: string): Promise<{ output: string; exitCode: number }> {
    const run = await this.w.ctx.runCommand();
    let out = '';
    const sink = new Writable({
      write: (c: Buffer, _e, cb) => {
        out += c.toString();
        cb();
      },
    });
    const argv = this.windows ? ['cmd', '/c', cmd] : ['/bin/sh', '-c', cmd];
    const code = await run(argv, this.host!, { stdin: null, stdout: sink, stderr: sink, signal: this.proc?.signal ?? new AbortController().signal });
    return { output: out, exitCode: code };
  }

  private async listen(port: number, handler: Parameters<typeof startServer>[3]): Promise<void> {
    const address = this.w.hostNetwork ? this.w.node.address() : this.w.ip!;
    const h = await startServer(this.w.ctx.network, address, port, handler);
    this.servers.push(h);
    this.ports.add(port);
  }

  /** Starts one instance and resolves with its exit. */
  async run(onStart?: (signal: AbortSignal) => void): Promise<Exit> {
    const startedAt = new Date();
    const newID = randomBytes(32).toString('hex');
    const containerID = `containerd://${newID}`;
    // A new instance gets a new log; the last one that really ran becomes --previous.
    if (this.log.closed) {
      if (this.instanceRan) this.prevLog = this.log;
      this.log = new ContainerLog();
    }
    this.instanceRan = false;
    this.killReason = undefined;
    this.proc = this.w.ctx.controller();
    const signal = this.proc.signal;
    const finish = (exitCode: number, reason?: ExitReason, message?: string): Exit => {
      const kr = this.killReason;
      return {
        exitCode: kr?.exitCode ?? exitCode,
        reason: kr?.reason ?? reason ?? (exitCode === 0 ? 'Completed' : 'Error'),
        message,
        startedAt,
        finishedAt: new Date(),
        containerID,
      };
    };
    try {
      const created = this.w.replayedFailure('create', [this.spec.image ?? '']);
      if (created) throw new CreateContainerError(created.message.replace(/^Error: /, ''));
      const host = this.configure();
      // Created: from here the container has an ID (a config error never gets one).
      this.containerID = newID;
      this.host = host;
      const started = this.w.replayedFailure('start', [this.spec.image ?? '']);
      if (started) {
        const msg = started.message.replace(/^Error: /, '');
        this.event('Warning', started.reason ?? 'Failed', `Error: ${msg}`);
        return finish(128, 'StartError', msg);
      }
      if (this.windows && !this.w.wantsHostProcess && !validWindowsUser(host.user, false) && !this.w.ctx.broken('run-as-username', true)) {
        // §1: an invalid runAsUserName fails the container start.
        const msg = `failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem ${this.name}: The user name or password is incorrect.: unknown`;
        this.event('Warning', 'Failed', `Error: ${msg}`);
        return finish(128, 'StartError', msg);
      }
      this.event('Normal', 'Created', this.w.createdMessage(this.name));
      let argv = containerArgv(this.pulled!.manifest, this.spec, host.env);
      // Images whose components the runtime plays (daemons: the sig-windows-tools HostProcess
      // images) have no file layout here: their command lines are not looked up.
      if (this.w.hostProcess && !this.pulled!.manifest.daemons?.length) {
        const start = this.hostProcessStart(host, argv);
        if (!start.ok) {
          this.event('Warning', 'Failed', `Error: ${start.message}`);
          return finish(128, 'StartError', start.message);
        }
        argv = start.argv;
        host.cwd = start.workingDir;
      }
      const quiet = this.w.ctx.broken('logs', this.windows);
      const stdout = quiet ? devNull() : this.log.writer('stdout');
      const stderr = quiet ? devNull() : this.log.writer('stderr');
      const builtin = builtinFor(argv, this.pulled!.manifest, this.spec);
      // Runtime-played entrypoints bind their ports before the container counts as started.
      if (builtin) await this.startBuiltin(builtin, stdout);
      this.state = { running: { startedAt } };
      this.started = true;
      this.instanceRan = true;
      this.event('Normal', 'Started', `Started container ${this.name}`);
      onStart?.(signal);
      this.w.writeStatus();
      let code: number;
      if (builtin) code = await untilAborted(signal);
      else if (!this.windows && isHostEntrypoint(argv)) {
        const pod = this.w.pod;
        code = await runOnHost({
          argv,
          env: host.env,
          namespace: pod.metadata!.namespace!,
          serviceAccount: pod.spec?.serviceAccountName ?? 'default',
          api: this.w.ctx.opts.apiServer,
          stdout,
          stderr,
          signal,
        });
      } else {
        const run = await this.w.ctx.runCommand();
        code = await run(argv, host, { stdin: null, stdout, stderr, signal });
      }
      return finish(code);
    } catch (e) {
      if (e instanceof ContainerConfigError || e instanceof CreateContainerError) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      this.log.append('stderr', `${msg}\n`);
      return finish(128, 'StartError', msg);
    } finally {
      await this.stopServers();
      this.log.close();
      this.burns.clear();
      this.memoryBytes = 0;
      // Ends this instance's probes and releases the controller.
      this.proc?.abort('exited');
      this.proc = undefined;
    }
  }

  /** Starts what a runtime-played entrypoint serves (IIS on 80, nginx, redis); pause/idle serve nothing. */
  private async startBuiltin(b: NonNullable<ReturnType<typeof builtinFor>>, stdout: Writable): Promise<void> {
    const podName = this.w.pod.metadata!.name!;
    switch (b.kind) {
      case 'iis':
        // breaks: iis-serve: w3svc never answers.
        if (!this.w.ctx.broken('iis-serve', this.windows)) await this.listen(80, iisServer({ podName }));
        break;
      case 'nginx':
        stdout.write('/docker-entrypoint.sh: Configuration complete; ready for start up\n');
        await this.listen(80, nginxServer({ podName }));
        break;
      case 'redis':
        await this.listen(6379, redisConnection);
        stdout.write(`[1] ${new Date().toUTCString()} * The server is now ready to accept connections on port 6379\r\n`);
        break;
      case 'nfs':
        // NFS on 2049 (the data path is the sim's nfs volume store, keyed by server and path).
        await this.listen(2049, s => {
          s.on('error', () => {});
        });
        stdout.write('NFS started\n');
        break;
      case 'pause':
        if (b.text) stdout.write(b.text);
        break;
      case 'idle-shell':
        break;
    }
  }

  /** Stops the running instance (graceful deletion, liveness failure, OOM, /exit). */
  kill(reason?: { reason: ExitReason; exitCode: number }): void {
    if (!this.proc) return;
    this.killReason ??= reason;
    this.proc.abort('SIGTERM');
  }

  async stopServers(): Promise<void> {
    const s = this.servers;
    this.servers = [];
    this.ports.clear();
    await Promise.all(s.map(h => h.close().catch(() => undefined)));
  }

  /** Records a terminated state from an exit. */
  terminated(e: Exit): void {
    this.state = {
      terminated: {
        exitCode: e.exitCode,
        reason: e.reason,
        ...(e.message ? { message: e.message } : {}),
        startedAt: e.startedAt,
        finishedAt: e.finishedAt,
        containerID: e.containerID,
      },
    };
    this.ready = false;
  }

  waiting(reason: string, message?: string): void {
    this.state = { waiting: { reason, ...(message ? { message } : {}) } };
    this.ready = false;
  }

  errorOf(e: unknown): { reason: string; message: string } {
    if (e instanceof PullError) return { reason: e.reason, message: e.message };
    if (e instanceof ContainerConfigError) return { reason: 'CreateContainerConfigError', message: e.message };
    if (e instanceof CreateContainerError) return { reason: 'CreateContainerError', message: e.message };
    return { reason: 'CreateContainerError', message: e instanceof Error ? e.message : String(e) };
  }
}

/** A process that runs until stopped; exit code 0 as pause and the idle shell give. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<number>(resolve => {
    if (signal.aborted) resolve(0);
    else signal.addEventListener('abort', () => resolve(0), { once: true });
  });

const devNull = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });
