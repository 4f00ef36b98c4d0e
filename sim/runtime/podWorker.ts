// One pod on one node, from binding to removal: sandbox (IP, isolation, pause image),
// volumes, init containers, containers with their restart loops and back-off, status
// writes, and graceful deletion (Killing, release the IP, then delete with grace 0).

import { randomBytes } from 'node:crypto';
import type { V1PersistentVolume, V1PersistentVolumeClaim, V1Pod, V1PodStatus, V1RuntimeClass } from '@kubernetes/client-node';
import type { DnsConfig, Endpoint } from '../network/types.ts';
import type { KubeObject } from '../api/store.ts';
import type { RuntimeContext } from './context.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import type { PlatformWanted } from './images.ts';
import { ContainerRunner, CreateContainerError, type Exit } from './container.ts';
import { ContainerConfigError } from './env.ts';
import { backOffMessage, goDuration, PullError } from './imagePull.ts';
import { replayPodFailure, type ReplayedFailure } from './replay.ts';
import type { PodFailureStage } from '../profiles/types.ts';
import { buildStatus, type Phase } from './podStatus.ts';
import { watchProbes } from './probes.ts';
import { podDns, validWindowsUser } from './shellHost.ts';
import { splitPath } from './fs.ts';
import { nodeSpecOf } from '../nodes/nodeSpec.ts';
import { hostProcessOn, hypervIsolationOn, subPathHandlesLeak } from '../nodes/versions.ts';
import { MountError, podDir, refreshVolumes, setUpVolumes, subPathHandlesLeaked, type PodVolume, type VolumeBreak, type VolumeLimitation } from './volumes.ts';

/** The Hyper-V RuntimeClass handler (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) iso.hyperv-runtimeclass). */
export const HYPERV_HANDLER = 'runhcs-wcow-hypervisor';
const LEGACY_HYPERV_ANNOTATION = 'experimental.windows.kubernetes.io/isolation-type';

type SimNetworkExtras = { podIPs?(address: string, node: string): string[] };

export class PodWorker {
  pod: V1Pod;
  readonly uid: string;
  readonly windows: boolean;
  readonly hostNetwork: boolean;
  hyperv = false;
  hostProcess = false;
  /** The pod asked for HostProcess (even when breaks: hostprocess denies it). */
  wantsHostProcess = false;
  ip?: string;
  hostIP: string;
  startTime?: Date;
  sandboxReady = false;
  sandboxID = randomBytes(32).toString('hex');
  volumes?: Map<string, PodVolume>;
  initialized = false;
  phase: Phase = 'Pending';
  readonly init: ContainerRunner[];
  readonly containers: ContainerRunner[];
  terminating = false;
  private finished = new Set<ContainerRunner>();
  private abort: AbortController;
  private done?: Promise<void>;
  private statusQueued = false;
  private reason?: string;
  private message?: string;
  /** Killed by the shutdown manager (sim/runtime/nodeShutdown.ts): no restart, phase Failed. */
  private shutdownKilled = false;
  private disruption?: { reason: string; message: string };

  constructor(
    pod: V1Pod,
    readonly node: NodeRuntime,
    readonly ctx: RuntimeContext,
  ) {
    this.pod = pod;
    this.uid = pod.metadata!.uid!;
    this.windows = node.os === 'windows';
    this.hostNetwork = pod.spec?.hostNetwork ?? false;
    this.hostIP = node.address();
    this.abort = ctx.controller();
    this.init = (pod.spec?.initContainers ?? []).map(c => new ContainerRunner(c, this, true));
    this.containers = (pod.spec?.containers ?? []).map(c => new ContainerRunner(c, this, false));
  }

  get key(): string {
    return `${this.pod.metadata!.namespace}/${this.pod.metadata!.name}`;
  }

  start(): void {
    this.done = this.run().catch(e => {
      console.error(`sim: kubelet ${this.node.name}: pod ${this.key}:`, e);
    });
  }

  /** The platform containerd matches images against for this pod. */
  platform(kind: 'init' | 'app' | 'sandbox'): PlatformWanted {
    return {
      os: this.node.os,
      build: this.node.build,
      hyperv: this.hyperv && !this.ctx.broken('hyperv-runtimeclass'),
      // HostProcess containers run on the host, not in an isolated container: any Windows build works.
      anyBuild: this.hostProcess || !this.ctx.limited('osBuildMismatch', this.windows),
      brokenProcessIsolation: kind !== 'sandbox' && !this.hostProcess && this.ctx.broken('process-isolation', this.windows),
    };
  }

  podAddress(): string {
    return this.hostNetwork ? this.node.address() : (this.ip ?? this.node.address());
  }

  endpoint(): Endpoint {
    return {
      kind: 'pod',
      id: this.key,
      os: this.node.os,
      node: this.node.name,
      address: this.podAddress(),
      ...(this.hostNetwork ? { hostNetwork: true } : {}),
    };
  }

  nodeEndpoint(): Endpoint {
    return { kind: 'node', id: this.node.name, os: this.node.os, node: this.node.name, address: this.node.address() };
  }

  dns(): DnsConfig {
    return podDns(this.ctx, this.pod, this.node);
  }

  /**
   * The address the pod's own adapter shows (ipconfig). breaks: pod-ip ("Windows pods
   * share one IP"; FEATURES net.pod-ip promises one endpoint per pod) hands every Windows
   * pod of the node the endpoint of the node's first pod, as if HNS attached one endpoint
   * to all of them. Only what the pods are told changes: the twin keeps each pod on its own
   * address (status.podIP, the paths to it and the Services in front of it still work), so
   * the break is seen by the check that compares a pod's adapter with its pod IP, not by
   * crash loops (EADDRINUSE) in every feature that needs a second pod.
   */
  /** The pod's IPv6 address where the twin gives it one (dual-stack node), for its adapter. */
  ipv6(): string | undefined {
    if (!this.ip || this.hostNetwork) return undefined;
    return ((this.ctx.network as SimNetworkExtras).podIPs?.(this.ip, this.node.name) ?? []).find(a => a.includes(':'));
  }

  adapterIP(): string {
    if (!this.ip) return '';
    return this.windows && !this.hostNetwork && this.ctx.broken('pod-ip') ? (this.node.sharedPodIP ?? this.ip) : this.ip;
  }

  /** True when another container of this pod listens on port (shared-netns break). */
  siblingListens(self: ContainerRunner, port: number): boolean {
    return [...this.init, ...this.containers].some(c => c !== self && c.ports.has(port));
  }

  createdMessage(name: string): string {
    const minor = Number(/^v?\d+\.(\d+)/.exec(this.ctx.profile.kubernetesVersion)?.[1] ?? 0);
    return minor >= 32 ? `Created container: ${name}` : `Created container ${name}`;
  }

  runningContainerIDs(): string[] {
    return [...this.init, ...this.containers].filter(c => c.running && c.containerID).map(c => c.containerID!.slice(0, 64));
  }

  /** The store's latest view of the pod (deletion is noticed here). */
  update(pod: V1Pod): void {
    this.pod = pod;
    if (pod.metadata?.deletionTimestamp && !this.terminating) void this.terminate(true);
  }

  /** The pod is gone from the store (force deletion): stop everything, write nothing. */
  forget(): Promise<void> {
    return this.terminate(false);
  }

  private event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.node.recorder.pod(this.pod, type, reason, message);
  }

  /** Writes status on the next tick (coalesces bursts; never re-enters a store watch callback). */
  writeStatus(): void {
    if (this.statusQueued) return;
    this.statusQueued = true;
    queueMicrotask(() => {
      this.statusQueued = false;
      this.flushStatus();
    });
  }

  private flushStatus(): void {
    // No writes once deletion started: Store.update removes an object that has a
    // deletionTimestamp and no finalizers, which would skip the kubelet's cleanup.
    if (this.ctx.stopped || this.terminating || this.pod.metadata?.deletionTimestamp) return;
    this.updatePhase();
    const podIPs = this.ip ? ((this.ctx.network as SimNetworkExtras).podIPs?.(this.ip, this.node.name) ?? [this.ip]) : [];
    try {
      this.ctx.store.mutate(
        'pods',
        this.pod.metadata!.namespace,
        this.pod.metadata!.name!,
        o => {
          if (o.metadata.uid !== this.uid) return;
          o.status = buildStatus(
            {
              pod: this.pod,
              phase: this.phase,
              hostIP: this.hostIP,
              podIPs,
              startTime: this.startTime,
              sandboxReady: this.sandboxReady,
              initialized: this.initialized,
              init: this.init,
              containers: this.containers,
              reason: this.reason,
              message: this.message,
              disruption: this.disruption,
            },
            o.status as V1PodStatus | undefined,
          ) as unknown as KubeObject['status'];
        },
        { skipAdmission: true },
      );
    } catch {
      /* pod gone */
    }
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    this.startTime = new Date();
    this.writeStatus();
    while (!(await this.createSandbox())) if (!(await this.ctx.sleep(this.ctx.retryMs, signal))) return;
    for (;;) {
      try {
        this.volumes = setUpVolumes(this.volumeContext());
        this.expandVolumes();
        break;
      } catch (e) {
        if (e instanceof MountError) this.event('Warning', e.reason, e.message);
        else this.event('Warning', 'FailedMount', `MountVolume.SetUp failed: ${(e as Error).message}`);
        if (!(await this.ctx.sleep(this.ctx.retryMs, signal))) return;
      }
    }
    for (const c of this.init) {
      if (c.spec.restartPolicy === 'Always') {
        // A sidecar: started in order, kept running alongside the app containers.
        void this.loop(c);
        while (!c.running && !this.terminating) if (!(await this.ctx.sleep(50, signal))) return;
        continue;
      }
      const ok = await this.loop(c);
      if (!ok) {
        this.updatePhase();
        this.writeStatus();
        return;
      }
    }
    this.initialized = true;
    this.writeStatus();
    await Promise.all(this.containers.map(c => this.loop(c)));
    this.updatePhase();
    this.writeStatus();
  }

  volumeContext() {
    return {
      store: this.ctx.store,
      pod: this.pod,
      style: this.node.style,
      disk: this.node.disk,
      pvStore: this.ctx.pvStore,
      limited: (k: VolumeLimitation) => this.ctx.limited(k, this.windows),
      broken: (k: VolumeBreak) => this.ctx.broken(k, this.windows),
      serviceAccountToken: () => this.serviceAccountToken(),
      caCert: () => this.ctx.opts.apiServer?.caPem ?? '-----BEGIN CERTIFICATE-----\nMIIBsimulated\n-----END CERTIFICATE-----\n',
    };
  }

  /**
   * The projected token: one the API server accepts for the pod's ServiceAccount, as the kubelet's
   * TokenRequest gives (in-cluster clients authenticate with it); a look-alike when this runtime
   * has no API server to ask or the ServiceAccount is gone.
   */
  private serviceAccountToken(): string {
    const api = this.ctx.opts.apiServer;
    const ns = this.pod.metadata!.namespace!;
    try {
      if (api) return api.serviceAccountToken(ns, this.pod.spec?.serviceAccountName ?? 'default');
    } catch {
      /* no such ServiceAccount */
    }
    return fakeToken(this.pod);
  }

  /** Refreshes secret/configMap volume contents (the kubelet's periodic sync). */
  refreshVolumes(): void {
    if (this.volumes) refreshVolumes(this.volumeContext(), this.volumes);
  }

  /**
   * Node-side expansion of this pod's mounted claims whose PV the resizer grew (condition
   * FileSystemResizePending): the kubelet grows the file system, then sets the claim's
   * status.capacity and clears the condition. the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) stor.resize: expanding a mounted
   * volume is a Windows limitation; mount-utils' resizefs exists for Linux only
   * (resizefs_unsupported.go: "Resize is not supported for this build"), so the kubelet
   * reports FileSystemResizeFailed and the claim keeps its old capacity.
   */
  expandVolumes(): void {
    if (!this.volumes || this.terminating || this.ctx.stopped) return;
    const store = this.ctx.store;
    const ns = this.pod.metadata!.namespace!;
    for (const v of this.pod.spec?.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (!claim) continue;
      const pvc = store.tryGet('persistentvolumeclaims', ns, claim) as unknown as V1PersistentVolumeClaim | undefined;
      if (!pvc?.status?.conditions?.some(c => c.type === 'FileSystemResizePending' && c.status === 'True')) continue;
      const pvName = pvc.spec?.volumeName ?? '';
      const size = (store.tryGet('persistentvolumes', undefined, pvName) as unknown as V1PersistentVolume | undefined)?.spec?.capacity?.storage;
      if (!size) continue;
      if (this.ctx.limited('volumeResize', this.windows)) {
        this.event('Warning', 'FileSystemResizeFailed', `MountVolume.NodeExpandVolume failed for volume "${pvName}" : Resize is not supported for this build`);
        continue;
      }
      try {
        store.mutate(
          'persistentvolumeclaims',
          ns,
          claim,
          o => {
            const c = o as unknown as V1PersistentVolumeClaim;
            c.status = {
              ...c.status,
              capacity: { ...c.status?.capacity, storage: size },
              conditions: (c.status?.conditions ?? []).filter(x => x.type !== 'FileSystemResizePending'),
            };
          },
          { skipAdmission: true },
        );
      } catch {
        continue; /* claim gone */
      }
      this.event('Normal', 'FileSystemResizeSuccessful', `MountVolume.NodeExpandVolume succeeded for volume "${pvName}" ${this.node.name}`);
    }
  }

  private sandboxFailed(msg: string, reason = 'FailedCreatePodSandBox'): false {
    this.event('Warning', reason, `Failed to create pod sandbox: ${msg}`);
    return false;
  }

  /** This pod's replayed failures so far, by entry id (an entry with `times` fails only that many attempts). */
  private readonly replayHits = new Map<string, number>();

  /** A profile's replayed failure for this pod at `stage` (sim/runtime/replay.ts), matched on its images (and the pause image for the sandbox). */
  replayedFailure(stage: PodFailureStage, images: string[]): ReplayedFailure | undefined {
    return replayPodFailure(this.ctx.profile, stage, this.node.name, this.pod, images, this.replayHits);
  }

  /** The node's kubelet version (the profile's Kubernetes version unless the node says otherwise). */
  kubeletVersion(): string {
    return nodeSpecOf(this.ctx.profile, this.node.name)?.kubeletVersion ?? this.ctx.profile.kubernetesVersion;
  }

  /** Runtime class, isolation, user, pause image and IP: the pod sandbox. */
  private async createSandbox(): Promise<boolean> {
    const spec = this.pod.spec!;
    const wo = spec.securityContext?.windowsOptions;
    this.wantsHostProcess =
      this.windows && (wo?.hostProcess === true || (spec.containers.length > 0 && spec.containers.every(c => c.securityContext?.windowsOptions?.hostProcess)));
    // The node's kubelet and runtime decide (sim/nodes/versions.ts): a kubelet before 1.23 or a
    // containerd before 1.6 starts an ordinary container; Docker refuses the pod.
    const versions = nodeSpecOf(this.ctx.profile, this.node.name);
    const hostProcessSupport = versions ? hostProcessOn(versions, this.ctx.profile.featureGates) : 'host';
    if (this.wantsHostProcess && hostProcessSupport === 'refused')
      return this.sandboxFailed(
        `rpc error: code = Unknown desc = hostprocess containers are not supported by the container runtime (${versions!.containerRuntime})`,
      );
    // breaks: hostprocess: the pod runs as an ordinary container (image user, container file system).
    this.hostProcess = this.wantsHostProcess && hostProcessSupport === 'host' && !this.ctx.broken('hostprocess');
    this.hyperv = false;
    const images = [...(spec.initContainers ?? []), ...spec.containers].map(c => c.image ?? '');
    const replayed = this.replayedFailure('sandbox', this.hostProcess ? images : [...images, this.pauseImage()]);
    if (replayed) return this.sandboxFailed(replayed.message.replace(/^Failed (?:to )?create pod sandbox: /, ''), replayed.reason);
    if (spec.runtimeClassName) {
      const rc = this.ctx.store.tryGet('runtimeclasses.node.k8s.io', undefined, spec.runtimeClassName) as unknown as V1RuntimeClass | undefined;
      if (!rc) return this.sandboxFailed(`runtimeclass.node.k8s.io "${spec.runtimeClassName}" not found`);
      if (rc.handler === HYPERV_HANDLER) {
        // Only containerd >= 1.7 has the runhcs-wcow-hypervisor handler configured.
        if (!this.windows || (versions && !hypervIsolationOn(versions)))
          return this.sandboxFailed(`rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "${rc.handler}" is configured`);
        this.hyperv = true;
      }
    }
    // The v1.9 Windows guide's annotation was removed in 1.21: ignored unless the profile lifts that limitation.
    if (this.windows && this.pod.metadata?.annotations?.[LEGACY_HYPERV_ANNOTATION] === 'hyperv' && !this.ctx.limited('hypervAnnotation', true))
      this.hyperv = true;
    if (
      this.windows &&
      !this.wantsHostProcess &&
      wo?.runAsUserName &&
      !validWindowsUser(wo.runAsUserName, false) &&
      !this.ctx.broken('run-as-username') &&
      !this.ctx.broken('unknown-username')
    ) {
      // docs/windows-commands.md §1: an invalid runAsUserName fails the sandbox; the pod stays Pending.
      return this.sandboxFailed(
        `rpc error: code = Unknown desc = failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem ${this.sandboxID.slice(0, 12)}: The user name or password is incorrect.: unknown`,
      );
    }
    const docker = (versions?.containerRuntime ?? '').startsWith('docker://');
    // Docker (dockershim, cri-dockerd) passes the pod's runAsUser to Windows as the user name of
    // the pause container, which no account has: the sandbox fails at CreateProcess
    // (https://github.com/elastic/helm-charts/issues/931).
    const runAsUser = spec.securityContext?.runAsUser;
    if (this.windows && docker && runAsUser !== undefined && !this.hostProcess) {
      const extra = JSON.stringify({
        CommandLine: 'cmd /S /C "PAUSE <CON"',
        User: String(runAsUser),
        WorkingDirectory: 'C:\\',
        CreateStdInPipe: true,
        CreateStdOutPipe: true,
        CreateStdErrPipe: true,
        ConsoleSize: [0, 0],
      }).replace(/</g, '\\u003c');
      return this.sandboxFailed(
        `rpc error: code = Unknown desc = failed to start sandbox container for pod "${this.pod.metadata!.name}": Error response from daemon: container ${this.sandboxID} encountered an error during CreateProcess: failure in a Windows system call: The user name or password is incorrect. (0x52e) extra info: ${extra}`,
      );
    }
    if (!this.hostProcess) {
      const pause = this.pauseImage();
      try {
        // breaks: pause-image: a pause image of another build. Docker pulls it and HCS refuses to
        // start it (https://github.com/kubernetes-sigs/sig-windows-tools/issues/72); containerd
        // finds no matching platform at pull time.
        if (this.windows && this.ctx.broken('pause-image') && docker)
          return this.sandboxFailed(
            `rpc error: code = Unknown desc = failed to start sandbox container for pod "${this.pod.metadata!.name}": Error response from daemon: hcsshim::CreateComputeSystem ${this.sandboxID}: The container operating system does not match the host operating system.`,
          );
        if (this.windows && this.ctx.broken('pause-image'))
          throw new Error(`failed to pull and unpack image "${pause}": no match for platform in manifest: not found`);
        await this.node.images.pull(pause, 'IfNotPresent', this.platform('sandbox'), this.abort.signal);
      } catch (e) {
        const m = e instanceof Error ? e.message.replace(/^rpc error: code = \w+ desc = /, '') : String(e);
        // dockershim's words (https://github.com/rancher/rancher/issues/23161), containerd's otherwise.
        return this.sandboxFailed(
          docker
            ? `rpc error: code = Unknown desc = failed pulling image "${pause}": ${m.replace(/^Error response from daemon: /, '')}`
            : `rpc error: code = Unknown desc = failed to get sandbox image "${pause}": failed to pull image "${pause}": ${m}`,
        );
      }
    }
    if (this.hostNetwork) this.ip = this.node.address();
    else {
      this.ip = this.ctx.network.allocatePodIP(this.pod.metadata!.namespace!, this.pod.metadata!.name!, this.node.name);
      if (this.windows && this.ctx.broken('pod-ip')) this.node.sharedPodIP ??= this.ip;
    }
    this.sandboxReady = true;
    this.writeStatus();
    return true;
  }

  private pauseImage(): string {
    const minor = Number(/^v?\d+\.(\d+)/.exec(this.ctx.profile.kubernetesVersion)?.[1] ?? 0);
    return `registry.k8s.io/pause:${minor >= 31 ? '3.10' : '3.9'}`;
  }

  private backoff(base: number, n: number, max = this.ctx.crashMax): number {
    return Math.min(base * 2 ** n, max);
  }

  /** Runs a container with its restarts. Resolves true when it completed successfully for good. */
  private async loop(c: ContainerRunner): Promise<boolean> {
    const signal = this.abort.signal;
    const image = c.spec.image ?? '';
    let pullFailures = 0;
    // The kubelet's start counters (sim/runtime/kubeletMetrics.ts): each attempt, then its failure.
    const type = c.init ? 'init_container' : 'container';
    const counters = this.node.metrics;
    while (!this.terminating) {
      counters.started(type, this.wantsHostProcess);
      try {
        const replayed = this.replayedFailure('pull', [image]);
        if (replayed) throw new PullError('ErrImagePull', replayed.message.replace(/^Failed to pull image "[^"]*": /, ''));
        await c.pull(signal);
      } catch (e) {
        if (this.terminating || signal.aborted) return false;
        const { reason, message } = c.errorOf(e);
        counters.failed(type, reason, this.wantsHostProcess);
        c.waiting(reason, message);
        c.event('Warning', 'Failed', reason === 'ErrImageNeverPull' ? message : `Failed to pull image "${image}": ${message}`);
        c.event('Warning', 'Failed', `Error: ${reason}`);
        this.writeStatus();
        if (!(await this.ctx.sleep(Math.min(1000, this.ctx.pullBase), signal))) return false;
        if (reason === 'ErrImagePull') {
          // The next sync finds the image in back-off: another attempt, failed ImagePullBackOff.
          counters.started(type, this.wantsHostProcess);
          counters.failed(type, 'ImagePullBackOff', this.wantsHostProcess);
          c.waiting('ImagePullBackOff', backOffMessage(image, message, this.kubeletVersion()));
          c.event('Normal', 'BackOff', `Back-off pulling image "${image}"`);
          c.event('Warning', 'Failed', 'Error: ImagePullBackOff');
          this.writeStatus();
        }
        if (!(await this.ctx.sleep(this.backoff(this.ctx.pullBase, pullFailures++), signal))) return false;
        continue;
      }
      pullFailures = 0;
      // The profile's container start latency (HCS on Windows): a timer, as the pull's.
      const startMs = (this.windows ? this.ctx.profile.latencies?.windowsStartMs : this.ctx.profile.latencies?.linuxStartMs) ?? 0;
      if (startMs > 0 && !(await this.ctx.sleep(startMs, signal))) return false;
      let exit: Exit;
      try {
        exit = await c.run(procSignal => {
          void watchProbes(this, c, procSignal);
        });
      } catch (e) {
        if (!(e instanceof ContainerConfigError) && !(e instanceof CreateContainerError)) throw e;
        counters.failed(type, e instanceof ContainerConfigError ? 'CreateContainerConfigError' : 'CreateContainerError', this.wantsHostProcess);
        c.waiting(e instanceof ContainerConfigError ? 'CreateContainerConfigError' : 'CreateContainerError', e.message);
        c.event('Warning', 'Failed', `Error: ${e.message}`);
        this.writeStatus();
        if (!(await this.ctx.sleep(this.ctx.retryMs, signal))) return false;
        continue;
      }
      // The runtime refused to start it (StartContainer failed): the kubelet's RunContainerError.
      if (exit.reason === 'StartError' || exit.reason === 'ContainerCannotRun') counters.failed(type, 'RunContainerError', this.wantsHostProcess);
      c.terminated(exit);
      if (this.terminating || this.shutdownKilled) {
        this.writeStatus();
        return false;
      }
      const policy = c.spec.restartPolicy === 'Always' ? 'Always' : (this.pod.spec?.restartPolicy ?? 'Always');
      const restart =
        c.init && c.spec.restartPolicy !== 'Always'
          ? exit.exitCode !== 0 && policy !== 'Never'
          : policy === 'Always' || (policy === 'OnFailure' && exit.exitCode !== 0);
      if (!restart) {
        this.finished.add(c);
        this.updatePhase();
        this.writeStatus();
        return exit.exitCode === 0;
      }
      c.lastState = { terminated: c.state.terminated };
      // Its node is rebooting: the container restarts when the node is back (sim/runtime/reboot.ts).
      if (this.node.down) this.writeStatus();
      if (!(await this.node.whenUp(signal))) return false;
      const delay = c.restartCount === 0 ? 0 : this.backoff(this.ctx.crashBase, c.restartCount - 1);
      if (delay > 0) {
        const who = `${c.name} pod=${this.pod.metadata!.name}_${this.pod.metadata!.namespace}(${this.uid})`;
        c.waiting('CrashLoopBackOff', `back-off ${goDuration(delay)} restarting failed container=${who}`);
        c.event(
          'Warning',
          'BackOff',
          `Back-off restarting failed container ${c.name} in pod ${this.pod.metadata!.name}_${this.pod.metadata!.namespace}(${this.uid})`,
        );
        this.updatePhase();
        this.writeStatus();
        if (!(await this.ctx.sleep(delay, signal))) return false;
      } else this.writeStatus();
      c.restartCount++;
    }
    return false;
  }

  private updatePhase(): void {
    // The shutdown manager's kill: Failed once no container runs (unless it had Succeeded).
    if (this.shutdownKilled && this.phase !== 'Succeeded' && ![...this.init, ...this.containers].some(c => c.running)) {
      this.phase = 'Failed';
      return;
    }
    const failedInit = this.init.find(c => this.finished.has(c) && (c.state.terminated?.exitCode ?? 0) !== 0);
    if (failedInit) {
      this.phase = 'Failed';
      return;
    }
    if (!this.initialized) {
      this.phase = 'Pending';
      return;
    }
    const all = this.containers;
    if (all.length && all.every(c => this.finished.has(c))) {
      this.phase = all.every(c => c.state.terminated?.exitCode === 0) ? 'Succeeded' : 'Failed';
      return;
    }
    this.phase = all.every(c => c.started || c.restartCount > 0 || c.state.terminated) ? 'Running' : 'Pending';
  }

  /** Still running: not terminal, not being deleted (the shutdown manager's active pods). */
  get active(): boolean {
    return this.phase !== 'Succeeded' && this.phase !== 'Failed' && !this.terminating && !this.shutdownKilled;
  }

  /**
   * The kubelet's shutdown manager kills the pod (pkg/kubelet/nodeshutdown/nodeshutdown_manager.go
   * killPods): the DisruptionTarget condition (TerminationByKubelet) at once, the containers run
   * out `graceMs` (netexec --delay-shutdown and most Windows containers do not exit on the stop
   * signal), then stop; the pod ends phase Failed, reason Terminated, with the shutdown message,
   * its sandbox gone (PodReadyToStartContainers False). Its containers never restart.
   */
  async shutdownKill(graceMs: number, status: { reason: string; message: string; disruptionReason: string }): Promise<void> {
    if (!this.active) return;
    this.shutdownKilled = true;
    this.reason = status.reason;
    this.message = status.message;
    this.disruption = { reason: status.disruptionReason, message: status.message };
    for (const c of [...this.init, ...this.containers]) if (c.running) c.event('Normal', 'Killing', `Stopping container ${c.name}`);
    this.writeStatus();
    if (graceMs > 0) await this.ctx.sleep(graceMs);
    // Exit code of a Windows container stopped at the end of its grace period: UNCONFIRMED.
    for (const c of [...this.init, ...this.containers]) if (c.running) c.kill({ reason: 'Error', exitCode: 1 });
    this.sandboxReady = false;
    // The container loops end (no restart after a shutdown kill) and run() writes phase Failed.
    await Promise.race([this.done, this.ctx.sleep(5_000)]);
    this.updatePhase();
    this.writeStatus();
  }

  /** The node went down under the pod: every running container is lost with its host (exit 255, Unknown). */
  hostLost(): void {
    for (const c of [...this.init, ...this.containers]) if (c.running) c.kill({ reason: 'Unknown', exitCode: 255 });
  }

  /** Stops containers (Killing), releases the IP and volumes; with `remove`, deletes the pod (grace 0). */
  async terminate(remove: boolean): Promise<void> {
    if (this.terminating) {
      await this.done;
      return;
    }
    this.terminating = true;
    const all = [...this.init, ...this.containers];
    const grace = (this.pod.metadata?.deletionGracePeriodSeconds ?? 30) * 1000;
    // terminationGraceScale: containers that do not exit on the stop signal (Windows containers
    // under HCS shutdown often do not) run out the grace period, time-scaled; otherwise they stop at once.
    const graceScale = this.ctx.profile.terminationGraceScale;
    if (remove && graceScale && grace > 0 && !this.ctx.stopped)
      await new Promise<void>(r => {
        setTimeout(r, grace * graceScale).unref();
      });
    for (const c of all) {
      if (c.running) c.event('Normal', 'Killing', `Stopping container ${c.name}`);
      c.kill();
    }
    this.abort.abort();
    const graceMs = Math.min(grace, 30_000);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.done,
      new Promise<void>(r => {
        timer = setTimeout(r, graceMs);
      }),
    ]);
    clearTimeout(timer);
    await Promise.all(all.map(c => c.stopServers()));
    for (const c of all)
      if (c.running)
        c.terminated({ exitCode: 0, reason: 'Completed', startedAt: new Date(), finishedAt: new Date(), containerID: `containerd://${c.containerID}` });
    if (this.ip && !this.hostNetwork) this.ctx.network.releasePodIP(this.pod.metadata!.namespace!, this.pod.metadata!.name!);
    // Leaked subPath handles: the volumes cannot be torn down, so the pod's directory stays on the
    // node and the kubelet never finishes the deletion (the pod stays Terminating until forced).
    const stuck = remove && this.windows && subPathHandlesLeaked(this.pod, this.volumeContext(), subPathHandlesLeak(this.kubeletVersion()));
    try {
      if (!stuck) this.node.disk.remove(podDir(this.node.style, this.uid));
    } catch {
      /* nothing mounted */
    }
    if (this.hostProcess)
      try {
        this.node.disk.remove(splitPath(`C:\\C\\${this.sandboxID}`, 'windows'));
      } catch {
        /* no volumes */
      }
    this.node.pods.delete(this.key);
    if (remove && !this.ctx.stopped && !stuck) {
      try {
        this.ctx.store.delete('pods', this.pod.metadata!.namespace, this.pod.metadata!.name!, { gracePeriodSeconds: 0, preconditions: { uid: this.uid } });
      } catch {
        /* already gone */
      }
    }
  }
}

/** A service account token shaped like a JWT (header.payload.signature); not verifiable. */
function fakeToken(pod: V1Pod): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const ns = pod.metadata!.namespace!;
  const sa = pod.spec?.serviceAccountName ?? 'default';
  return `${b64({ alg: 'RS256', kid: 'sim' })}.${b64({ iss: 'https://kubernetes.default.svc.cluster.local', sub: `system:serviceaccount:${ns}:${sa}`, aud: ['https://kubernetes.default.svc.cluster.local'], exp: Math.floor(Date.now() / 1000) + 3600 })}.c2lt`;
}

export { goDuration };
