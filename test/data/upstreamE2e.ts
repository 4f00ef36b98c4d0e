// Every spec (Describe/It row) of upstream kubernetes/kubernetes test/e2e/windows and every
// windows-operational-readiness test area, with the catalog features that cover it or why none
// does. test/harness/catalog/upstreamE2e.test.ts checks every claimed feature is in the catalog
// and renders docs/upstream-e2e.md from this table: a new upstream spec is added here as a row
// (missing until a feature covers it); a planned feature's row turns covered when it lands.
// Spec texts: https://github.com/kubernetes/kubernetes/tree/master/test/e2e/windows and
// https://github.com/kubernetes-sigs/windows-operational-readiness (specifications).

export type Coverage = 'covered' | 'partly' | 'missing' | 'n/a';

export interface UpstreamSpec {
  /** The file under test/e2e/windows, or "readiness <area>". */
  file: string;
  /** The Describe and It text. */
  spec: string;
  /** Catalog features that observe what the spec checks (must be in the catalog). */
  features?: string[];
  /** Features another change adds: the row is covered once one is in the catalog. */
  planned?: string[];
  /** Set when the features cover only part of the spec, or why no feature can. */
  note?: string;
  /** A spec no feature of ours can observe (needs what a conformance harness does not bring). */
  notApplicable?: string;
}

export const UPSTREAM_SPECS: UpstreamSpec[] = [
  { file: 'cpu_limits.go', spec: 'Cpu Resources [Serial] Container limits should not be exceeded after waiting 2 minutes', features: ['res.cpu-limit-enforced'] },
  { file: 'density.go', spec: 'Density [Serial] [Slow] create a batch of pods latency/resource should be within limit when create 10 pods with 0s interval', features: ['work.startup-latency'] },
  {
    file: 'device_plugin.go',
    spec: 'Device Plugin should be able to create a functioning device plugin for Windows',
    features: ['res.directx-device'],
    note: 'n/a unless a Windows node advertises microsoft.com/directx; uses the cluster\'s DirectX device plugin instead of deploying it',
  },
  { file: 'dns.go', spec: 'DNS should support configurable pod DNS servers', features: ['net.dns-config'] },
  {
    file: 'eviction.go',
    spec: 'Eviction [Serial] [Slow] [Disruptive] should evict a pod when a node experiences memory pressure',
    features: ['res.eviction-memory-pressure'],
  },
  {
    file: 'gmsa_full.go',
    spec: 'GMSA Full [Serial] [Slow] GMSA support works end to end',
    notApplicable: 'needs an Active Directory domain and a gMSA account the cluster is joined to',
  },
  {
    file: 'gmsa_full.go',
    spec: 'GMSA Full [Serial] [Slow] GMSA support can read and write file to remote SMB folder',
    notApplicable: 'needs an Active Directory domain and an SMB share',
  },
  {
    file: 'gmsa_kubelet.go',
    spec: "GMSA Kubelet [Slow] kubelet GMSA support when creating a pod with correct GMSA credential specs passes the credential specs down to the Pod's containers",
    features: ['sec.gmsa-credspec'],
  },
  { file: 'host_process.go', spec: 'HostProcess containers should run as a process on the host/node', features: ['iso.hostprocess'] },
  { file: 'host_process.go', spec: 'HostProcess containers should support init containers', planned: ['iso.hostprocess-init'] },
  { file: 'host_process.go', spec: 'HostProcess containers container command path validation', features: ['iso.hostprocess-command-paths'] },
  {
    file: 'host_process.go',
    spec: 'HostProcess containers should support various volume mount types',
    features: ['iso.hostprocess-volumes'],
    note: 'ConfigMap, Secret, emptyDir, downward API and a projected token; no hostPath (it would leave a directory on the node)',
  },
  { file: 'host_process.go', spec: 'HostProcess containers metrics should report count of started and failed to start HostProcess containers', features: ['iso.hostprocess-metrics'] },
  { file: 'host_process.go', spec: 'HostProcess containers container stats validation', features: ['iso.hostprocess-stats'] },
  { file: 'host_process.go', spec: 'HostProcess containers should support querying api-server using in-cluster config', features: ['iso.hostprocess-incluster'] },
  { file: 'host_process.go', spec: 'HostProcess containers should run as localgroup accounts', planned: ['iso.hostprocess-localgroup'] },
  {
    file: 'hybrid_network.go',
    spec: 'Hybrid cluster network for all supported CNIs should have stable networking for Linux and Windows pods',
    features: ['net.w2l', 'net.l2w', 'net.w2w-same-node', 'net.w2w-cross-node'],
  },
  { file: 'hybrid_network.go', spec: 'Hybrid cluster network should provide Internet connection for Linux containers using DNS', features: ['net.linux-egress'] },
  { file: 'hybrid_network.go', spec: 'Hybrid cluster network should provide Internet connection for Windows containers using DNS', features: ['net.egress'] },
  { file: 'hyperv.go', spec: 'HyperV containers should start a hyperv isolated container', features: ['iso.hyperv-runtimeclass'] },
  { file: 'kubelet_stats.go', spec: 'Kubelet-Stats [Serial] Kubelet stats collection for Windows nodes when running 10 pods should return within 10 seconds', features: ['res.stats-under-load'] },
  { file: 'kubelet_stats.go', spec: 'Kubelet-Stats Kubelet stats collection for Windows nodes when windows is booted should return bootid within 10 seconds', features: ['node.boot-id'] },
  { file: 'kubelet_stats.go', spec: 'Kubelet-Stats Kubelet stats collection for Windows nodes when running 3 pods should return within 10 seconds', features: ['res.stats-under-load'] },
  { file: 'memory_limits.go', spec: "Memory Limits [Serial] [Slow] attempt to deploy past allocatable memory limits should fail deployments of pods once there isn't enough memory", features: ['res.past-allocatable', 'res.limits'] },
  { file: 'memory_limits.go', spec: 'Memory Limits [Serial] [Slow] Allocatable node memory should be equal to a calculated allocatable memory value', features: ['res.allocatable-configz', 'res.node-reserved'] },
  { file: 'metrics.go', spec: 'Kubelet metrics on Windows node validates /metrics/resource', features: ['res.kubelet-resource-metrics'] },
  { file: 'networking.go', spec: 'Networking UDP pod-to-pod and node-to-pod', features: ['net.udp-pod-to-pod', 'net.udp-node-to-pod'] },
  { file: 'node_shutdown.go', spec: 'GracefulNodeShutdown should be able to gracefully shutdown pods with various grace periods', features: ['node.graceful-shutdown'] },
  { file: 'reboot_node.go', spec: 'RebootHost containers [Serial] [Disruptive] [Slow] should run as a reboot process on the host/node', features: ['node.reboot'], note: 'disruptive: only with --disruptive --disruptive-node NODE; bootID from the node status, not the WMI boot time; egress from the Windows pod to --egress-url (not www.google.com) before and after the reboot, not judged without --egress-url; upstream\'s Linux egress (8.8.8.8:53) before it is left to net.linux-egress' },
  { file: 'security_context.go', spec: 'SecurityContext should be able create pod and run with RunAsUserName', features: ['sec.run-as-username'] },
  { file: 'security_context.go', spec: 'SecurityContext should not be able to create pods with unknown usernames at Pod level', features: ['sec.unknown-username-refused'] },
  { file: 'security_context.go', spec: 'SecurityContext should not be able to create pods with unknown usernames at Container level', features: ['sec.unknown-username-refused'] },
  { file: 'security_context.go', spec: 'SecurityContext should override SecurityContext username if set', features: ['sec.username-override'] },
  { file: 'security_context.go', spec: 'SecurityContext should ignore Linux Specific SecurityContext if set', features: ['sec.linux-fields-ignored'] },
  {
    file: 'security_context.go',
    spec: 'SecurityContext should not be able to create pods with containers running as ContainerAdministrator when runAsNonRoot is true',
    features: ['sec.run-as-nonroot'],
  },
  {
    file: 'security_context.go',
    spec: 'SecurityContext should not be able to create pods with containers running as CONTAINERADMINISTRATOR when runAsNonRoot is true',
    features: ['sec.run-as-nonroot-any-case'],
  },
  { file: 'security_context.go', spec: 'SecurityContext should be able to create pod and run containers', features: ['sec.run-as-nonroot'] },
  { file: 'service.go', spec: 'Services should be able to create a functioning NodePort service for Windows', features: ['net.pod-to-nodeport', 'net.nodeport-external'] },
  // Not an It of upstream's Windows service.go (its only It is the NodePort one, at master and in
  // every stored version): the churn specs are sig-network's test/e2e/network/service.go ("should
  // work after the service has been recreated", "should be able to up and down services"), which
  // net.service-churn runs from a Windows pod over Windows backends. Kept as the issue named it.
  { file: 'service.go', spec: 'Services should be able to delete and recreate services and their rules come back', features: ['net.service-churn'] },
  {
    file: 'statefulset.go',
    spec: 'StatefulSets should have the ability to delete and recreate pods for StatefulSets which preserve their ability to serve as routed endpoints for services',
    features: ['work.statefulset-recreate', 'work.statefulset'],
  },
  {
    file: 'subpath_cleanup.go',
    spec: 'Windows subpath cleanup pod with multiple subPath mounts should terminate cleanly',
    features: ['stor.subpath-cleanup', 'stor.subpath', 'stor.emptydir-memory'],
    note: "upstream's pod without its three nested hostPath mounts (they would leave directories on the node); limited before v1.37 (kubernetes#138367)",
  },
  {
    file: 'volumes.go',
    spec: 'Windows volume mounts check volume mount permissions container should have readOnly permissions on emptyDir',
    features: ['stor.emptydir-readonly', 'stor.emptydir'],
  },
  { file: 'volumes.go', spec: 'Windows volume mounts check volume mount permissions container should have readOnly permissions on hostMapPath', features: ['stor.hostpath'] },
  { file: 'container_stop_signals.go', spec: 'Container stop signals lifecycle.stopSignal is validated for Windows pods', planned: ['work.stop-signal-windows'] },
  // Was "Windows demo: ACLs of files in mounted volumes" (our words): upstream's demo.go has one It,
  // under Describe "Windows tests" and Context "check file permissions"
  // (https://github.com/kubernetes/kubernetes/blob/master/test/e2e/windows/demo.go). It logs Get-Acl
  // of a ConfigMap item's file and asserts its content and mode 0775 through agnhost mounttest.
  { file: 'demo.go', spec: 'Windows tests check file permissions container should have right permissions', features: ['cfg.configmap-file-acl'] },
  { file: 'readiness Core.Network', spec: 'pod-to-pod, pod-to-Service, Services deleted and recreated', features: ['net.w2w-same-node', 'net.pod-to-clusterip', 'net.service-churn'] },
  { file: 'readiness Core.Network', spec: 'Endpoints and EndpointSlices list the Windows pods behind a Service', planned: ['net.endpointslices-windows'] },
  { file: 'readiness Core.Scheduling', spec: 'nodeSelector, taints and tolerations, RuntimeClass', features: ['sched.os-selector', 'sched.taint-toleration', 'sched.runtimeclass-scheduling'] },
  { file: 'readiness Core.Storage', spec: 'emptyDir and hostPath volumes', features: ['stor.emptydir', 'stor.hostpath'] },
  { file: 'readiness Extend.HostProcess', spec: 'HostProcess pods run on the host', features: ['iso.hostprocess'] },
  { file: 'readiness Extend.ActiveDirectory', spec: 'gMSA credential specs', notApplicable: 'needs an Active Directory domain' },
  {
    file: 'readiness Extend.NetworkPolicy',
    spec: 'deny all, allow by label, namespace and port',
    features: ['net.network-policy'],
    note: 'n/a where discovery sees no engine that enforces on Windows (flannel, win-bridge; Azure NPM below 2022)',
  },
  { file: 'readiness Extend.HyperV', spec: 'Hyper-V isolated pods', features: ['iso.hyperv-runtimeclass'] },
];

/** The row's standing against the catalog's feature IDs. */
export function coverageOf(row: UpstreamSpec, ids: ReadonlySet<string>): Coverage {
  if (row.notApplicable) return 'n/a';
  const landed = [...(row.features ?? []), ...(row.planned ?? []).filter(id => ids.has(id))];
  if (!landed.length) return 'missing';
  return row.note && row.features?.length ? 'partly' : 'covered';
}

/** docs/upstream-e2e.md, rendered from the table and the catalog's IDs. */
export function renderUpstreamDoc(ids: ReadonlySet<string>): string {
  const counts: Record<Coverage, number> = { covered: 0, partly: 0, missing: 0, 'n/a': 0 };
  const rows = UPSTREAM_SPECS.map(r => {
    const c = coverageOf(r, ids);
    counts[c]++;
    const features = [...(r.features ?? []), ...(r.planned ?? []).filter(id => ids.has(id))];
    const planned = (r.planned ?? []).filter(id => !ids.has(id));
    const why = [r.notApplicable, r.note, planned.length ? `planned: ${planned.join(', ')}` : ''].filter(Boolean).join('; ');
    return `| ${r.file} | ${r.spec.replace(/\|/g, '\\|')} | ${c} | ${features.map(f => `\`${f}\``).join(', ') || '—'} | ${why} |`;
  });
  return [
    '# Upstream Windows e2e specs and the features that cover them',
    '',
    'Every spec of upstream [test/e2e/windows](https://github.com/kubernetes/kubernetes/tree/master/test/e2e/windows) and every',
    '[windows-operational-readiness](https://github.com/kubernetes-sigs/windows-operational-readiness) area, with the catalog',
    'features that observe it. Generated from `test/data/upstreamE2e.ts` by `npm run docs` (checked by',
    '`test/harness/catalog/upstreamE2e.test.ts`); a new upstream spec is a new row there, missing until a feature covers it.',
    '',
    `Covered ${counts.covered}, partly ${counts.partly}, missing ${counts.missing}, n/a ${counts['n/a']} (of ${UPSTREAM_SPECS.length}).`,
    '',
    '| file | spec | coverage | features | notes |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
