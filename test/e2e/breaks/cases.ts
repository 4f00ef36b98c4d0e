// Which features depend on each break of the sim profile (sim/profiles/types.ts BREAKABLE), on the
// default profile with node access over SSH. `regressed`: the features whose named behaviour the
// break takes away. `error`: the features whose means it takes away (they cannot observe; error
// names the means or the failed control). `outcomes`: other documented changes. Everything else
// keeps the outcome of the unbroken run. Breaks are grouped only where their dependents are apart.

import type { Outcome } from '../../../lib/catalog/types.ts';
import type { BreakKey } from '../../../sim/profiles/types.ts';

export interface BreakCase {
  name: string;
  breaks: BreakKey[];
  regressed: string[];
  error: string[];
  outcomes?: Record<string, Outcome>;
  /**
   * Set (to why) when the break's effect depends on chance (a scheduler that ignores the OS picks
   * any node): `regressed` then lists the features that may regress, errors are not listed, and
   * the rule (no limited or lifted without a control) is still checked.
   */
  random?: string;
}

/** Everything the harness does through exec into a Windows pod (probes, ipconfig, files...). */
const EXECS_INTO_WINDOWS = [
  'cfg.configmap-env',
  'cfg.configmap-file-acl',
  'cfg.configmap-volume',
  'cfg.secret-at-rest',
  'cfg.secret-defaultmode',
  'cfg.secret-env',
  'cfg.secret-volume',
  'iso.hostprocess',
  'iso.hostprocess-incluster',
  'iso.hostprocess-init',
  'iso.hostprocess-localgroup',
  'iso.hostprocess-volumes',
  'iso.process',
  'net.dns-config',
  'net.dns-dotted-name',
  'net.dns-hostnet',
  'net.dns-service',
  'net.egress',
  'net.hairpin',
  'net.icmp-egress',
  'net.pod-ip',
  'net.pod-to-clusterip',
  'net.pod-to-nodeport',
  'net.preserve-destination',
  'net.service-churn',
  'net.session-affinity',
  'net.session-affinity-timeout',
  'net.udp-pod-to-pod',
  'net.w2l',
  'net.w2w-cross-node',
  'net.w2w-same-node',
  'res.memory-no-oomkill',
  'sec.gmsa-credspec',
  'sec.linux-fields-ignored',
  'sec.privileged',
  'sec.run-as-username',
  'sec.username-override',
  'stor.emptydir',
  'stor.emptydir-memory',
  'stor.emptydir-readonly',
  'stor.hostpath',
  'stor.mount-propagation',
  'stor.pvc',
  'stor.readonly-rootfs',
  'stor.subpath',
  'stor.subpath-cleanup',
  'work.env-colon-name',
  'work.multi-container',
  'work.statefulset',
  'work.statefulset-recreate',
];

/** Every feature that starts a Windows pod (not HostProcess): none of them can observe without a pod sandbox. */
const STARTS_WINDOWS_PODS = [
  'cfg.configmap-env',
  'cfg.configmap-file-acl',
  'cfg.configmap-volume',
  'cfg.secret-at-rest',
  'cfg.secret-defaultmode',
  'cfg.secret-env',
  'cfg.secret-volume',
  'iso.hyperv-annotation',
  'iso.hyperv-runtimeclass',
  'iso.process',
  'net.dns-config',
  'net.dns-dotted-name',
  'net.dns-hostnet',
  'net.dns-service',
  'net.egress',
  'net.hairpin',
  'net.icmp-egress',
  'net.l2w',
  'net.lb',
  'net.node-to-pod',
  'net.node-to-service',
  'net.nodeport-external',
  'net.nodeport-local',
  'net.pod-ip',
  'net.pod-to-clusterip',
  'net.pod-to-nodeport',
  'net.preserve-client-ip',
  'net.preserve-destination',
  'net.service-churn',
  'net.session-affinity',
  'net.session-affinity-timeout',
  'net.udp-node-to-pod',
  'net.udp-pod-to-pod',
  'net.w2l',
  'net.w2w-cross-node',
  'net.w2w-same-node',
  'res.cpu-limit-enforced',
  'res.limits',
  'res.memory-no-oomkill',
  'res.metrics-api',
  'res.stats',
  'res.stats-under-load',
  'res.kubelet-resource-metrics',
  'res.past-allocatable',
  'sec.gmsa-credspec',
  'sec.linux-fields-ignored',
  'sec.privileged',
  'sec.run-as-nonroot',
  'sec.run-as-nonroot-any-case',
  'sec.run-as-username',
  'sec.unknown-username-refused',
  'sec.username-override',
  'stor.block',
  'stor.emptydir',
  'stor.emptydir-memory',
  'stor.emptydir-readonly',
  'stor.hostpath',
  'stor.mount-propagation',
  'stor.nfs',
  'stor.pvc',
  'stor.readonly-rootfs',
  'stor.resize',
  'stor.subpath',
  'stor.subpath-cleanup',
  'work.daemonset',
  'work.deployment',
  'work.env-colon-name',
  'work.exec-logs',
  'work.hpa',
  'work.iis-pod',
  'work.multi-container',
  'work.os-mismatch',
  'work.port-forward',
  'work.startup-latency',
  'work.statefulset',
  'work.statefulset-recreate',
];

export const BREAK_CASES: BreakCase[] = [
  // Exec into Windows pods fails: only the feature about exec regresses; every probe that execs
  // into a Windows pod cannot observe (error, with the runtime's own message).
  { name: 'exec', breaks: ['exec'], regressed: ['work.exec-logs'], error: EXECS_INTO_WINDOWS },
  // Cluster DNS drops Windows pods' queries: the DNS features and per-pod StatefulSet names
  // regress; the dotted-name and host-network DNS limitations cannot be seen (their controls do
  // not resolve either); egress and ICMP to a named host cannot be judged.
  // PVC binding broken: stor.pvc regresses; raw block and resize (limited) cannot be seen.
  // RBAC without pods/log, pods/portforward, metrics.k8s.io: 403s are errors, never regressions.
  {
    name: 'dns+pvc+rbac',
    breaks: ['dns', 'pvc-bind', 'rbac-subresources'],
    regressed: ['net.dns-service', 'net.dns-config', 'work.statefulset', 'stor.pvc'],
    error: [
      'net.dns-dotted-name',
      'net.dns-hostnet',
      'net.egress',
      'net.icmp-egress',
      'stor.block',
      'stor.resize',
      'work.exec-logs',
      'work.port-forward',
      'res.metrics-api',
      'work.statefulset-recreate',
    ],
  },
  // The Service path from Windows pods broken: the ClusterIP and hairpin paths regress; session
  // affinity and its timeout cannot be seen without a Service that answers, nor the pod's NodePort
  // path without its ClusterIP control. Secret volumes empty:
  // the secret volume regresses; defaultMode and at-rest cannot be seen. The DaemonSet
  // controller skips Windows nodes: work.daemonset regresses; the pause-image DaemonSet made no pod.
  {
    name: 'service+secret+daemonset',
    breaks: ['clusterip', 'secret-volume', 'daemonset-controller'],
    regressed: ['net.pod-to-clusterip', 'net.hairpin', 'cfg.secret-volume', 'iso.hostprocess-volumes', 'work.daemonset'],
    error: [
      'net.session-affinity',
      'net.session-affinity-timeout',
      'net.pod-to-nodeport',
      'net.service-churn',
      'cfg.secret-defaultmode',
      'cfg.secret-at-rest',
      'node.pause-image',
    ],
  },
  // ---- WINCHECK_BREAKS=all ------------------------------------------------------------------
  // Controllers that never act (no status, no pods): the feature about each controller regresses
  // once the controller has not observed its workload within the bound; the features that only
  // use one (the pause-image DaemonSet, the HPA's and the limits' Deployments) cannot observe.
  {
    name: 'controllers-down',
    breaks: ['daemonset-controller-down', 'deployment-controller-down', 'statefulset-controller-down'],
    regressed: ['work.daemonset', 'work.deployment', 'work.statefulset', 'work.statefulset-recreate'],
    error: ['node.pause-image', 'work.hpa', 'res.limits'],
  },
  {
    // The beta label gone: discovery sees it, so the expectation itself turns limited. Memory
    // not counted by the scheduler on Windows nodes: the pod past allocatable is bound.
    name: 'scheduling',
    breaks: ['beta-os-label', 'pod-os-field', 'taint-enforcement', 'runtimeclass-scheduling', 'scheduler-memory-fit'],
    regressed: ['sched.pod-os-field', 'sched.taint-toleration', 'sched.runtimeclass-scheduling', 'res.past-allocatable'],
    error: ['sec.linux-fields-rejected'],
    outcomes: { 'sched.os-selector-beta': 'limited' },
  },
  {
    name: 'workloads',
    breaks: ['iis-serve', 'deployment-controller', 'statefulset-dns', 'shared-netns'],
    regressed: ['work.iis-pod', 'work.deployment', 'work.statefulset', 'work.multi-container'],
    // The recreated pod's per-pod name is checked after its control, the same name before deletion.
    error: ['work.hpa', 'res.limits', 'work.statefulset-recreate'],
  },
  {
    name: 'streams+env',
    breaks: ['logs', 'port-forward', 'hpa', 'secret-env', 'configmap-env'],
    // Empty Windows logs also leave a HostProcess container's logs.usedBytes at 0, which upstream's
    // container stats validation (iso.hostprocess-stats) requires above zero.
    regressed: ['work.exec-logs', 'work.port-forward', 'work.hpa', 'cfg.secret-env', 'cfg.configmap-env', 'iso.hostprocess-stats'],
    error: [],
  },
  {
    name: 'volumes+limits',
    breaks: ['configmap-volume', 'hostpath', 'emptydir', 'resource-limits', 'cpu-limit'],
    // The ConfigMap item of the file ACL check is missing; the subpath cleanup pod's ConfigMap keys,
    // mounted by subPath, are missing too; the readOnly container does not see the file its
    // read-write neighbour wrote in their unshared emptyDir; stor.subpath's "sub" directory is in
    // an emptyDir the break splits per container; res.past-allocatable's 100Mi control pod has
    // limits, so it does not start (seen on the sim; that check reports it as regressed).
    regressed: [
      'cfg.configmap-volume',
      'cfg.configmap-file-acl',
      'iso.hostprocess-volumes',
      'stor.hostpath',
      'stor.emptydir',
      'stor.emptydir-readonly',
      'res.limits',
      'res.cpu-limit-enforced',
      'res.past-allocatable',
      'stor.subpath',
      'stor.subpath-cleanup',
    ],
    error: ['work.hpa', 'stor.mount-propagation', 'res.memory-no-oomkill'],
  },
  {
    name: 'node stats',
    // allocatable = capacity (node-reserved) or without the hard eviction threshold: the kubelet's
    // /configz no longer accounts for status.allocatable.
    breaks: ['stats', 'metrics-api', 'hyperv-runtimeclass', 'node-reserved', 'allocatable-configz'],
    regressed: [
      'res.stats',
      'res.stats-under-load',
      'res.kubelet-resource-metrics',
      'iso.hostprocess-stats',
      'res.metrics-api',
      'work.hpa',
      'iso.hyperv-runtimeclass',
      'res.node-reserved',
      'res.allocatable-configz',
    ],
    // The memory emptyDir's backing is read from its volume stats.
    error: ['res.cpu-limit-enforced', 'stor.emptydir-memory'],
  },
  {
    name: 'node',
    breaks: ['hostprocess', 'run-as-username', 'node-services', 'hns-network'],
    regressed: [
      'iso.hostprocess',
      'iso.hostprocess-volumes',
      'iso.hostprocess-incluster',
      'iso.hostprocess-init',
      'iso.hostprocess-localgroup',
      'iso.hostprocess-stats',
      'iso.hostprocess-metrics',
      'iso.hostprocess-command-paths',
      'sec.run-as-username',
      'sec.unknown-username-refused',
      'sec.username-override',
      'node.services',
      'node.hns-network',
    ],
    error: [],
  },
  // The runtime logs on any name (as the image user); the pod's name wins over the container's
  // (so a container-level unknown name is never tried); the kubelet skips its runAsNonRoot check
  // (the any-case feature's control, the exact name refused, fails).
  // HostProcess containers get no volume mounts: the volumes feature and the in-cluster token regress.
  { name: 'hostprocess-volumes', breaks: ['hostprocess-volumes'], regressed: ['iso.hostprocess-volumes', 'iso.hostprocess-incluster'], error: [] },
  // The runtime drops gMSA credential specs: nltest in both containers names no domain.
  // The kubelet lists HostProcess pods without their containers' stats: only the HostProcess stats feature regresses.
  { name: 'hostprocess-stats', breaks: ['hostprocess-stats'], regressed: ['iso.hostprocess-stats'], error: [] },
  // The kubelet counts HostProcess containers as ordinary ones only: only the HostProcess start counters feature regresses.
  { name: 'hostprocess-metrics', breaks: ['hostprocess-metrics'], regressed: ['iso.hostprocess-metrics'], error: [] },
  // The DirectX device plugin allocates nothing: nothing on the default profile, which runs no
  // plugin (res.directx-device is n/a there); test/e2e/areas/directxDevice.test.ts sees it regress
  // on a profile with addons.directxDevicePlugin.
  { name: 'directx-device', breaks: ['directx-device'], regressed: [], error: [] },
  // HostProcess command lines keep the mount-point variable and lose their working directory: only the command path feature regresses.
  { name: 'hostprocess-command-paths', breaks: ['hostprocess-command-paths'], regressed: ['iso.hostprocess-command-paths'], error: [] },
  { name: 'gmsa-credspec', breaks: ['gmsa-credspec'], regressed: ['sec.gmsa-credspec'], error: [] },
  { name: 'unknown-username', breaks: ['unknown-username'], regressed: ['sec.unknown-username-refused'], error: [] },
  // The local-group container's own runAsUserName loses to the pod's SYSTEM too.
  {
    name: 'username-precedence',
    breaks: ['username-precedence'],
    regressed: ['sec.unknown-username-refused', 'sec.username-override', 'iso.hostprocess-localgroup'],
    error: [],
  },
  // The kubelet holds runAsUser against runAsNonRoot containers: the non-admin pod of sec.run-as-nonroot does not run.
  { name: 'run-as-user-nonroot', breaks: ['run-as-user-nonroot'], regressed: ['sec.run-as-nonroot'], error: [] },
  { name: 'run-as-nonroot', breaks: ['run-as-nonroot'], regressed: ['sec.run-as-nonroot'], error: ['sec.run-as-nonroot-any-case'] },
  // The API server takes any stop signal on a Windows pod.
  { name: 'stop-signal-validation', breaks: ['stop-signal-validation'], regressed: ['work.stop-signal-windows'], error: [] },
  // EndpointSlices of Windows pods without nodeName (the sim's routing finds backends by address).
  { name: 'endpointslice-windows', breaks: ['endpointslice-windows'], regressed: ['net.endpointslices-windows'], error: [] },
  { name: 'pod-ip', breaks: ['pod-ip'], regressed: ['net.pod-ip'], error: [] },
  // A recreated Service gets no rules on Windows nodes (its control, the Service before deletion,
  // still answers); a deleted StatefulSet pod is never made again (its control, the pod's name
  // before deletion, still answers).
  { name: 'churn', breaks: ['service-churn', 'statefulset-recreate'], regressed: ['net.service-churn', 'work.statefulset-recreate'], error: [] },
  // UDP to Windows pods dropped, TCP to them untouched: the two UDP checks regress, their TCP controls answering.
  { name: 'udp', breaks: ['udp'], regressed: ['net.udp-pod-to-pod', 'net.udp-node-to-pod'], error: [] },
  // The policy engine programs nothing on Windows nodes: the default profile's flannel has no engine to break
  // (net.network-policy is n/a there); with Calico it regresses net.network-policy alone (test/e2e/areas/networkPolicy.test.ts).
  { name: 'network-policy', breaks: ['network-policy'], regressed: [], error: [] },
  {
    name: 'w2w-same-node',
    breaks: ['w2w-same-node'],
    regressed: ['net.w2w-same-node', 'net.pod-to-clusterip'],
    // UDP between the two same-node pods cannot be judged once their TCP control fails too.
    error: ['net.session-affinity', 'net.session-affinity-timeout', 'net.pod-to-nodeport', 'net.service-churn', 'net.udp-pod-to-pod'],
  },
  // StatefulSet pods sit on both Windows nodes and reach each other across them.
  { name: 'w2w-cross-node', breaks: ['w2w-cross-node'], regressed: ['net.w2w-cross-node', 'work.statefulset'], error: ['work.statefulset-recreate'] },
  // The ClusterIP Service has a Linux backend.
  { name: 'w2l', breaks: ['w2l'], regressed: ['net.w2l', 'net.pod-to-clusterip'], error: [] },
  // The IIS check GETs the IIS pod from a Linux helper.
  { name: 'l2w', breaks: ['l2w'], regressed: ['net.l2w', 'work.iis-pod'], error: [] },
  {
    name: 'dns-config+egress+hairpin',
    breaks: ['dns-config', 'egress', 'hairpin'],
    regressed: ['net.dns-config', 'net.egress', 'net.hairpin'],
    error: ['net.icmp-egress'],
  },
  {
    name: 'node paths',
    breaks: ['node-to-pod', 'nodeport-external', 'pod-to-nodeport'],
    regressed: ['net.node-to-pod', 'net.nodeport-external', 'net.pod-to-nodeport'],
    // The node's UDP to the pod cannot be judged once its TCP control fails too.
    error: ['net.preserve-client-ip', 'net.udp-node-to-pod'],
  },
  {
    name: 'service features',
    breaks: ['node-to-service', 'loadbalancer', 'session-affinity'],
    regressed: ['net.node-to-service', 'net.lb', 'net.session-affinity'],
    // A HostProcess pod reaches the kubernetes Service as the node does.
    error: ['net.session-affinity-timeout', 'net.preserve-destination', 'iso.hostprocess-incluster'],
  },
  // DSR paths: the default profile runs kube-proxy with DSR. Dual-stack: n/a on an IPv4 cluster.
  {
    name: 'dsr',
    breaks: ['preserve-client-ip', 'preserve-destination', 'dual-stack'],
    regressed: ['net.preserve-client-ip', 'net.preserve-destination'],
    error: [],
  },
  // The image has no manifest for the node's build: every Windows pod fails to pull. Only the
  // feature about process isolation (an image of the node's build runs) regresses; raw block
  // still sees the kubelet refuse its volume before the pull.
  {
    name: 'process-isolation',
    breaks: ['process-isolation'],
    regressed: ['iso.process'],
    error: STARTS_WINDOWS_PODS.filter(id => !['iso.process', 'stor.block'].includes(id)),
  },
  // A subPath mount shows the whole volume; a medium Memory emptyDir is refused (FailedMount),
  // which upstream's Windows e2e does not allow: both regress, and so does upstream's subpath
  // cleanup pod (it mounts both; it does not start, or its subPath files are whole volumes).
  {
    name: 'subpath+emptydir-memory',
    breaks: ['subpath', 'emptydir-memory'],
    regressed: ['stor.subpath', 'stor.emptydir-memory', 'stor.subpath-cleanup'],
    error: [],
  },
  // The kubelet leaks subPath handles on any version: the default profile's v1.33 kubelets already
  // do (stor.subpath-cleanup is limited there), so nothing changes; on v1.37 it regresses
  // stor.subpath-cleanup alone (test/e2e/areas/subpathCleanup.test.ts).
  { name: 'subpath-handle-leak', breaks: ['subpath-handle-leak'], regressed: [], error: [] },
  // readOnly dropped from emptyDir mounts: only the readOnly emptyDir check regresses (stor.readonly-rootfs
  // judges the root filesystem; its readOnly volume is a note).
  { name: 'emptydir-readonly', breaks: ['emptydir-readonly'], regressed: ['stor.emptydir-readonly'], error: [] },
  // The files of Windows pods' volumes lack the Users rule: only the check that reads an ACL regresses.
  { name: 'volume-file-acl', breaks: ['volume-file-acl'], regressed: ['cfg.configmap-file-acl'], error: [] },
  // No sandbox for any Windows pod: only the feature about the pause image regresses.
  { name: 'pause-image', breaks: ['pause-image'], regressed: ['node.pause-image'], error: STARTS_WINDOWS_PODS },
  { name: 'boot-id', breaks: ['boot-id'], regressed: ['node.boot-id'], error: [] },
  // A routine run never reboots a node (node.reboot is n/a without --disruptive): nothing changes.
  // Its regression with --disruptive-node is in test/e2e/areas/disruptive.test.ts.
  { name: 'node-reboot', breaks: ['node-reboot'], regressed: [], error: [] },
  // Nor shuts one down (node.graceful-shutdown is n/a without --disruptive): nothing changes.
  // Its regression with --disruptive-node and the gate on is in test/e2e/areas/disruptive.test.ts.
  { name: 'graceful-shutdown', breaks: ['graceful-shutdown'], regressed: [], error: [] },
  // Nor puts one under memory pressure (res.eviction-memory-pressure is n/a without --disruptive): nothing changes.
  // Its regression with --disruptive-node is in test/e2e/areas/disruptive.test.ts.
  { name: 'eviction', breaks: ['eviction'], regressed: [], error: [] },
  {
    name: 'scheduler-os-selector',
    breaks: ['scheduler-os-selector'],
    random: 'the scheduler then places pods on any node: which fixtures land on Linux differs per run',
    regressed: ['sched.os-selector', 'sched.os-selector-beta', 'sched.pod-os-field', 'sched.linux-stays-linux', 'work.daemonset', 'work.deployment'],
    error: [],
  },
];

/** The cases `npm test` runs (the means most checks rest on; WINCHECK_BREAKS=all runs every case). */
export const DEFAULT_CASES = ['exec', 'dns+pvc+rbac', 'service+secret+daemonset'];
