// The cluster profile: what a simulated cluster is made of and how it behaves.
// Written from the upstream Windows docs (https://kubernetes.io/docs/concepts/windows/intro/, the v1.9 and v1.22 pages) and real node dumps, never from the harness's catalog.
// Every sim module reads the profile through these types; loading and the built-in
// profiles live in ./load.ts and ./builtin/.

export type NodeOS = 'linux' | 'windows';

export interface NodeSpec {
  name: string;
  os: NodeOS;
  /** 'control-plane' nodes get the control-plane role label and taint. */
  role?: 'control-plane' | 'worker';
  /** Windows only: full build, e.g. "10.0.20348.2582". The first three parts pick the image tag. */
  windowsBuild?: string;
  /** e.g. "containerd://1.7.20". */
  containerRuntime?: string;
  /** kubelet version; defaults to the profile's kubernetesVersion. */
  kubeletVersion?: string;
  taints?: { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
  labels?: Record<string, string>;
  /** Omit the deprecated beta.kubernetes.io/os label (as some node images do). */
  omitBetaOSLabel?: boolean;
  capacity?: { cpu?: string; memory?: string; pods?: string; 'ephemeral-storage'?: string };
  /** Memory the kubelet reserves (system + kube reserved). allocatable = capacity - reserved. */
  reservedMemory?: string;
  reservedCpu?: string;
  /** Windows only: an OpenSSH server on the node (cmd.exe default shell). */
  ssh?: boolean;
  ready?: boolean;
  /** Cordoned (kubectl cordon): spec.unschedulable and the node.kubernetes.io/unschedulable taint. */
  unschedulable?: boolean;
  /** Labels the kubelet would set that this node lacks (e.g. node.kubernetes.io/windows-build). */
  removeLabels?: string[];
  // The variety of real nodes (the public node dumps in test/data/real-nodes/): see sim/nodes/nodeObject.ts.
  annotations?: Record<string, string>;
  /** The kubernetes.io/hostname label and Hostname address, where they differ from the node name. */
  hostname?: string;
  /** Addresses besides the InternalIP and Hostname. */
  addresses?: { type: 'ExternalIP' | 'InternalDNS' | 'ExternalDNS'; address: string }[];
  /** status.nodeInfo as the node reports it (editions such as "Windows Server 2022 Standard"); defaults per build. */
  osImage?: string;
  kernelVersion?: string;
  /** Extended resources in capacity and allocatable, e.g. nvidia.com/gpu: "1". */
  extendedResources?: Record<string, string>;
  /** Allocatable exactly as a real node reports it; each value set overrides capacity minus reserved. */
  allocatable?: { cpu?: string; memory?: string; pods?: string; 'ephemeral-storage'?: string };
  /** Conditions besides Ready (use `ready`): added, or replacing the kubelet's of the same type. */
  conditions?: { type: string; status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string }[];
  /** This node's own breaks and lifted limitations, on top of the profile's. */
  breaks?: BreakKey[];
  limitations?: Limitations;
}

/** Nodes made alike: `count` of them named `<name>-1` ... `<name>-<count>`, each built from the template as a listed node is. */
export interface NodePoolSpec {
  name: string;
  count: number;
  template: Omit<NodeSpec, 'name'>;
}

/**
 * Pods of other tenants: `podsPerNode` on every schedulable worker (Ready, not cordoned, not a
 * control plane), spread over `namespaces` namespaces, bound and Running from the start and
 * counted against the nodes' room. No container or network twin stands behind them (a few
 * hundred bytes each in the store), so a profile can hold ten thousand of them.
 */
export interface BackgroundSpec {
  namespaces: number;
  podsPerNode: number;
  /** Each pod's requests (none: best-effort pods, which hold a pod slot only). */
  requests?: { cpu?: string; memory?: string };
}

export interface NetworkSpec {
  /** Windows CNI network mode. */
  mode: 'l2bridge' | 'overlay' | 'host-gw';
  /**
   * CNI name, shows up as the DaemonSet in kube-system, e.g. "flannel", "calico". flannel,
   * calico, azure-cni and ovn-kubernetes get their real configuration (sim/nodes/cni.ts).
   */
  cni: string;
  dualStack?: boolean;
  /** kube-proxy on Windows: --enable-dsr and the WinDSR feature gate. */
  kubeProxyEnableDSR?: boolean;
  /**
   * The NetworkPolicy engine (sim/network/netpol.ts). Default: the CNI's own (calico, antrea),
   * none for the others (flannel has no policy engine). azure-npm: Azure Network Policy Manager
   * (AKS --network-policy azure), which enforces on Windows Server 2022 and later.
   */
  networkPolicy?: 'calico' | 'antrea' | 'azure-npm' | 'none';
  clusterDomain?: string;
}

/**
 * How a provider lays out its Windows nodes' components (the node's services, HNS tooling).
 * AKS: kube-proxy as the service `kubeproxy`, no DaemonSet, Get-HnsNetwork from a downloaded
 * hns.psm1; EKS/GKE: a `kube-proxy` service; sig-windows-tools: a HostProcess DaemonSet.
 */
export interface WindowsLayoutSpec {
  /** kube-proxy as a Windows service, as a HostProcess DaemonSet, or both (default). */
  kubeProxy?: 'service' | 'daemonset' | 'both';
  /** The service's name (default "kube-proxy"; AKS: "kubeproxy"). */
  kubeProxyServiceName?: string;
  /** Get-HnsNetwork is available (the hns.psm1 module is imported). Default true. */
  hnsModule?: boolean;
  /** hnsdiag.exe is on the node. Default true. */
  hnsdiag?: boolean;
}

export interface AddonSpec {
  metricsServer?: boolean;
  defaultStorageClass?: boolean;
  /** A LoadBalancer provisioner (assigns ingress addresses to type=LoadBalancer services). */
  loadBalancer?: boolean;
  /** A RuntimeClass named "runhcs-wcow-hypervisor" with handler runhcs-wcow-hypervisor. */
  hypervRuntimeClass?: boolean;
  /** A RuntimeClass "windows-2022" etc. whose scheduling injects the Windows selector. */
  windowsRuntimeClasses?: boolean;
  /**
   * The DirectX device plugin DaemonSet on Windows nodes (upstream device_plugin.go): each Windows
   * node advertises microsoft.com/directx (1, unless the node's extendedResources say otherwise)
   * and a container limiting one sees the GPU.
   */
  directxDevicePlugin?: boolean;
}

/**
 * Documented Windows limitations the sim enforces. Each is on (true) by default;
 * a profile sets one to false to lift it, so the harness can be seen to notice.
 */
export interface Limitations {
  /** the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): Windows pods have no outbound ICMP to other networks. */
  icmpEgress?: boolean;
  /** the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): a Windows node cannot reach its own NodePort. */
  localNodePort?: boolean;
  /** the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): sessionAffinityConfig.clientIP.timeoutSeconds is ignored on Windows. */
  sessionAffinityTimeout?: boolean;
  /** session affinity needs build >= 19551: ignored on 2019 nodes. */
  sessionAffinityOld?: boolean;
  /** Windows DNS treats dotted names as FQDNs (no search-suffix devolution). */
  dnsDottedName?: boolean;
  /** ClusterFirstWithHostNet is not supported on Windows. */
  dnsHostNetwork?: boolean;
  /** Process isolation: image build must equal host build. */
  osBuildMismatch?: boolean;
  /** Env var names with ':' rejected (before 1.32 unless the gate is on). */
  envColonName?: boolean;
  /** defaultMode permissions are not honoured (no POSIX modes). */
  secretDefaultMode?: boolean;
  /** Secret volume contents are written to the node's disk in plaintext. */
  secretAtRest?: boolean;
  /** emptyDir medium Memory accepted but backed by the node's disk (lifted: held in memory). */
  emptyDirMemory?: boolean;
  readOnlyRootFilesystem?: boolean;
  mountPropagation?: boolean;
  /**
   * Kubelets before v1.37 leak the handles of all but the last subPath of a Windows container, so a
   * deleted pod with several subPath mounts stays Terminating (kubernetes#112630); false lifts it.
   * No effect from v1.37 (the fix, kubernetes#138367).
   */
  subPathHandleLeak?: boolean;
  nfs?: boolean;
  blockVolume?: boolean;
  volumeResize?: boolean;
  /** No OOM killer: over-limit memory pages instead. */
  memoryOOMKill?: boolean;
  /** The legacy hyperv isolation annotation is ignored (removed in 1.21). */
  hypervAnnotation?: boolean;
  /** Linux-only securityContext fields are ignored when spec.os is unset. */
  linuxFieldsIgnored?: boolean;
  /** spec.os.name=windows forbids Linux-only fields (API validation). */
  linuxFieldsRejected?: boolean;
  privileged?: boolean;
  /**
   * the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): single-stack "IPv6-only" networking is not supported on Windows. Not
   * observable in the sim: a profile is single-stack IPv4 or dual-stack (network.dualStack),
   * never IPv6-only. The same seed says single-family Services (ipFamilies [IPv6]) on
   * dual-stack pods and nodes ARE supported, so the sim serves those (sim/network/serviceAllocation.ts).
   */
  ipv6Only?: boolean;
  /** Dual-stack not on overlay (VXLAN) or 2019. */
  dualStackOverlay?: boolean;
}

export type LimitationKey = keyof Limitations;

/**
 * Supported behaviours a profile can break on purpose, so the harness is seen to
 * report a regression. Names are the sim's own, describing the mechanism broken.
 */
export const BREAKABLE = [
  // scheduling / API
  'scheduler-os-selector', // scheduler ignores kubernetes.io/os nodeSelector
  'scheduler-memory-fit', // the scheduler does not count memory requests against Windows nodes' allocatable
  'beta-os-label', // Windows kubelets stop setting beta.kubernetes.io/os
  'pod-os-field', // API rejects spec.os
  'taint-enforcement', // scheduler ignores NoSchedule taints on Windows nodes
  'runtimeclass-scheduling', // RuntimeClass scheduling not merged into pods
  // workloads
  'iis-serve', // IIS container does not answer HTTP
  'deployment-controller', // Deployment never gets ready replicas
  'daemonset-controller', // DaemonSet skips Windows nodes
  'daemonset-controller-down', // the DaemonSet controller never acts (no status, no pods)
  'deployment-controller-down', // the Deployment controller never acts (no status, no ReplicaSet)
  'statefulset-controller-down', // the StatefulSet controller never acts (no status, no pods)
  'statefulset-dns', // no per-pod DNS records for StatefulSets
  'statefulset-recreate', // a StatefulSet pod deleted is not created again by its controller
  'shared-netns', // containers of one pod do not share localhost
  'exec', // exec into Windows pods fails
  'logs', // logs of Windows pods are empty
  'port-forward', // port-forward to Windows pods fails
  'hpa', // HPA gets no metrics for Windows pods
  // configuration
  'secret-env', // secretKeyRef env values wrong
  'configmap-env', // configMapKeyRef env values missing
  'secret-volume', // secret volume files missing
  'configmap-volume', // configmap volume files missing
  // storage
  'hostpath', // hostPath contents not visible / readOnly not honoured
  'emptydir', // emptyDir not shared between containers
  'emptydir-memory', // an emptyDir of medium Memory is refused (FailedMount)
  'emptydir-readonly', // readOnly on an emptyDir mount is not honoured (writes through it succeed)
  'volume-file-acl', // files of a Windows pod's volumes lack the inherited BUILTIN\Users rule (Get-Acl: SYSTEM and Administrators only)
  'subpath', // a subPath mount shows the whole volume
  'subpath-handle-leak', // the kubelet leaks the handles of a Windows container's subPaths on any version (kubernetes#112630 back): a deleted pod with several stays Terminating
  'pvc-bind', // PVCs stay Pending
  // resources
  'resource-limits', // pods with limits fail to start
  'cpu-limit', // CPU usage exceeds the limit
  'stats', // /stats/summary lacks Windows pods
  'metrics-api', // metrics.k8s.io lacks Windows pods
  'node-reserved', // allocatable == capacity
  'allocatable-configz', // the kubelet leaves its hard eviction threshold out of allocatable (status.allocatable disagrees with /configz)
  // isolation / security
  'process-isolation', // matching-build images fail to run
  'hyperv-runtimeclass', // no utility VM for Hyper-V pods
  'hostprocess', // HostProcess pods do not run as SYSTEM on the host
  'hostprocess-stats', // the kubelet's /stats/summary lists HostProcess pods without their containers' stats (CPU, working set, logs)
  'directx-device', // the DirectX device plugin allocates nothing: a container limiting microsoft.com/directx runs without the GPU (no DIRECTX_GPU_Name, no display device in dxdiag)
  'hostprocess-command-paths', // HostProcess command lines and working directories keep $env:CONTAINER_SANDBOX_MOUNT_POINT unexpanded and the working directory is ignored (mount-point and relative commands fail to start)
  'hostprocess-metrics', // the kubelet's /metrics counts HostProcess containers as ordinary ones only (no kubelet_started_host_process_containers_* samples)
  'hostprocess-volumes', // HostProcess containers get none of their volume mounts (neither under $CONTAINER_SANDBOX_MOUNT_POINT nor at mountPath)
  'gmsa-credspec', // the runtime drops the pod's and containers' gmsaCredentialSpec (containers see no domain)
  'run-as-username', // runAsUserName ignored
  'unknown-username', // the runtime starts containers whose runAsUserName names no account (as the image user)
  'username-precedence', // the pod's runAsUserName wins over the container's
  'run-as-user-nonroot', // the kubelet refuses runAsNonRoot Windows containers whose pod sets the Linux-only runAsUser (CreateContainerConfigError) instead of ignoring it
  'run-as-nonroot', // the kubelet skips its Windows runAsNonRoot check (ContainerAdministrator runs)
  'endpointslice-windows', // EndpointSlices list Windows pods without nodeName
  'stop-signal-validation', // the API server takes any lifecycle.stopSignal on spec.os.name=windows pods
  // node
  'node-services', // kubelet/kube-proxy services stopped
  'hns-network', // HNS network missing
  'pause-image', // pause image lacks the node's build
  'boot-id', // Windows kubelets report an empty status.nodeInfo.bootID
  'node-reboot', // shutdown.exe -r on a Windows node's host exits 0 and the node never restarts
  'graceful-shutdown', // the Windows kubelet's shutdown manager ignores the preshutdown notification: pods die with the host
  'eviction', // the Windows kubelet's eviction manager reports MemoryPressure but never evicts a pod (memory stays exhausted until the pods are deleted)
  // networking (paths)
  'pod-ip', // Windows pods share one IP
  'w2w-same-node',
  'w2w-cross-node',
  'w2l',
  'l2w',
  'clusterip',
  'service-churn', // a Service created again under a deleted one's name gets no rules on Windows nodes (its ClusterIP times out from Windows pods)
  'dns',
  'dns-config',
  'egress',
  'node-to-pod',
  'node-to-service',
  'nodeport-external',
  'pod-to-nodeport', // Windows pods' traffic to a Windows node's NodePort is dropped
  'udp', // UDP datagrams to Windows pods are dropped (TCP to them still works)
  'loadbalancer',
  'session-affinity',
  'preserve-client-ip',
  'preserve-destination',
  'hairpin',
  'dual-stack',
  'network-policy', // the policy engine programs no NetworkPolicy on Windows nodes (connections pass as if none existed)
  // the harness's own means (not a Windows behaviour): least-privilege RBAC
  'rbac-subresources', // 403 on pods/log, pods/portforward and metrics.k8s.io
] as const;

export type BreakKey = (typeof BREAKABLE)[number];

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** The stages at which a kubelet fails a pod: the image pull, the sandbox, creating or starting the container. */
export const POD_FAILURE_STAGES = ['pull', 'sandbox', 'create', 'start'] as const;
export type PodFailureStage = (typeof POD_FAILURE_STAGES)[number];

/**
 * One answer a real node gave, replayed by the sim (sim/runtime/replay.ts): a command's output
 * (`command`), or a pod failure the kubelet reports (`podFailure`). Each hit appends one JSON line
 * to the file named by WINCHECK_SIM_REPLAY_LOG.
 */
export interface ReplayEntry {
  /** Named in the hit log. */
  id: string;
  /** Where the command runs: on the node (HostProcess pod or SSH) or inside a container. */
  on?: 'node' | 'pod';
  /** Glob on node names ("win-*"). */
  nodes?: string;
  /** Regular expression on the command line as the node runs it. */
  command?: string;
  stdout?: string;
  stderr?: string;
  exitCode?: number;
  /** The kubelet fails matching pods as the real one did. */
  podFailure?: {
    /** Globs; every one given must match (nodes: the node, images: any of the pod's images or its pause image, runtimeClassName). */
    match?: { nodes?: string; images?: string; runtimeClassName?: string };
    stage: PodFailureStage;
    /** The event reason (default per stage: Failed, FailedCreatePodSandBox, Failed, Failed). */
    reason?: string;
    /** The runtime's error as events and container status carry it, worded for the node's kubelet version. */
    message: string;
    /**
     * Fail only the first `times` attempts of each matching pod at this stage, then go on as if
     * the entry were not there: a transient failure the kubelet's retry fixes (unset: every attempt).
     */
    times?: number;
  };
}

/** The PodSecurity plugin's configuration (PodSecurityConfiguration), plus one cluster policy beside it. */
export interface PodSecurityConfig {
  /** Levels and versions ("latest" or "v1.N") for namespaces without pod-security.kubernetes.io labels. */
  defaults?: {
    enforce?: PodSecurityLevel;
    'enforce-version'?: string;
    audit?: PodSecurityLevel;
    'audit-version'?: string;
    warn?: PodSecurityLevel;
    'warn-version'?: string;
  };
  /** Exempt usernames, RuntimeClass names and namespaces (namespaces default to [kube-system]). */
  exemptions?: { usernames?: string[]; runtimeClasses?: string[]; namespaces?: string[] };
  /**
   * Not part of PodSecurityConfiguration: a ValidatingAdmissionPolicy that refuses a namespace whose
   * enforce label is weaker than defaults.enforce, so the default cannot be opted out of.
   */
  enforceFloor?: boolean;
}

/** A validating admission webhook that refuses in its own words (a policy engine's). */
export interface AdmissionWebhookSpec {
  /** The webhook's name, e.g. "validate.kyverno.svc-fail". */
  name: string;
  /** What it refuses: objects of these kinds (any when unset), on these operations (create and update when unset), carrying a label matching one of these keys (`prefix/*` matches by prefix; any object when unset). */
  rejects: { kinds?: string[]; operations?: ('CREATE' | 'UPDATE')[]; labels?: string[] };
  /** Its own message. */
  message: string;
  /** Its HTTP code (default 400, as upstream when the webhook gives none). */
  code?: number;
}

export interface Profile {
  name: string;
  description?: string;
  /** Server version, e.g. "v1.33.1". */
  kubernetesVersion: string;
  /** Every node: those listed, then those of the pools (the loader expands nodePools into here). */
  nodes: NodeSpec[];
  nodePools?: NodePoolSpec[];
  background?: BackgroundSpec;
  network: NetworkSpec;
  addons: AddonSpec;
  /** Overrides of the documented limitations (all true unless set false). */
  limitations?: Limitations;
  /** Supported behaviours broken on purpose. */
  breaks?: BreakKey[];
  /** Feature gates of the API server and kubelets set apart from their defaults (ContainerStopSignals: true; WindowsHostProcessContainers: true lifts the 1.22 alpha). */
  featureGates?: Record<string, boolean>;
  /** Registry mirrors: "<mirror>/<ref>" resolves to the same image as "<ref>" (sim/runtime/images.ts). */
  registryMirrors?: string[];
  /** Image pull latency per image per node, first pull only (cached after). */
  imagePullLatencyMs?: number;
  /**
   * Aggregated APIs registered but unavailable ("custom.metrics.k8s.io/v1beta1", an adapter that is
   * down): discovery fails for them, so a terminating namespace stays Terminating with the
   * NamespaceDeletionDiscoveryFailure condition, as on real clusters.
   */
  unavailableAPIServices?: string[];
  /**
   * Containers run out their pod's termination grace period (terminationGracePeriodSeconds, 30 s
   * by default) times this scale before they stop, as containers that ignore the stop signal do
   * (0 or absent: they stop at once). 1 is real time; 0.1 turns 30 s into 3 s.
   */
  terminationGraceScale?: number;
  /**
   * The API server's token clock runs 1/scale times real time: a TokenRequest token (600 s at
   * least, as upstream enforces) expires after expirationSeconds times this scale in real time, and
   * its expirationTimestamp says that real moment (absent or 1: real time; 1/600 turns 600 s into 1 s).
   */
  tokenLifetimeScale?: number;
  /**
   * The API server's watch clock as a share of real time (sim/api/timing.ts): etcd compaction
   * every 5 minutes, watches without timeoutSeconds closed after 30 to 60 minutes, bookmarks about
   * once a minute, all times this scale (1 or absent: real time; 0.01 compacts every 3 s).
   */
  apiTimeScale?: number;
  /**
   * A node's shutdown delay (shutdown.exe /t), boot time (60 s) and the kubelet's shutdown grace
   * periods (sim/runtime/nodeShutdown.ts) are multiplied by this (default 0.02).
   */
  rebootScale?: number;
  /**
   * The kubelet's eviction manager clock (sim/runtime/eviction.ts): its monitoring period (10 s),
   * evictionPressureTransitionPeriod (5 min) and the pauses of memory consumers (testlimit -e) are
   * multiplied by this (default 0.02: the condition clears 6 s after the pressure ended).
   */
  evictionScale?: number;
  /**
   * The kubelets' graceful node shutdown settings (KubeletConfiguration shutdownGracePeriod and
   * shutdownGracePeriodCriticalPods, Go durations such as "20s"; default "0s": the shutdown
   * manager is disabled). On Windows it also needs the WindowsGracefulNodeShutdown gate (alpha
   * 1.32, off by default; beta 1.34, on): featureGates.
   */
  shutdownGracePeriod?: string;
  shutdownGracePeriodCriticalPods?: string;
  /** Pod Security admission: the AdmissionConfiguration's defaults and exemptions (none: privileged everywhere). */
  podSecurity?: PodSecurityConfig;
  /** Validating admission webhooks that refuse in their own words (sim/api/admission/webhooks.ts). */
  admissionWebhooks?: AdmissionWebhookSpec[];
  /**
   * Per-OS latencies, time-scaled from real clusters (the `realistic` profile): the first pull of
   * an image on a node (replaces imagePullLatencyMs for that OS) and each container start (HCS
   * starting a Windows container takes seconds; a Linux one, a fraction of that), and how long
   * the cloud takes to give a LoadBalancer Service its address (default 300 ms).
   */
  latencies?: { windowsPullMs?: number; linuxPullMs?: number; windowsStartMs?: number; linuxStartMs?: number; loadBalancerIngressMs?: number };
  /**
   * First pulls take as long as the image's size at this rate, times `scale` (time-scaled: 0.02
   * turns a 1.5 GB servercore pulled at 25 MB/s, about a minute, into 1.2 s). Overrides the other
   * pull latencies for images of known size.
   */
  pullLatency?: { mbPerSecond: number; scale: number };
  /** Windows node components' layout (services, HNS tooling) per provider. */
  windowsLayout?: WindowsLayoutSpec;
  /** Real nodes' answers the sim gives instead of its own (sim/runtime/replay.ts). */
  replay?: ReplayEntry[];
  /** Seeded fault injection (sim/api/faults.ts). */
  faults?: {
    seed?: number;
    /** Share of API requests answered 429 (Retry-After: 1) or 500 instead of being served. */
    apiErrorRate?: number;
    dropWatchRate?: number;
    /** Share of watches resumed from a resourceVersion answered 410 Expired (history compacted, a restarted server): the client must relist. */
    watchExpiredRate?: number;
    /** Share of API requests (and exec/attach upgrades) whose connection is reset before any answer. */
    connResetRate?: number;
    /** Share of API requests answered after 1–3 s (a slow link or a busy server). */
    slowRate?: number;
    /** A node that turns NotReady for a few seconds, and back: the first Windows node unless named. */
    nodeFlap?: { node?: string; afterMs?: number; forMs?: number; everyMs?: number };
  };
}
