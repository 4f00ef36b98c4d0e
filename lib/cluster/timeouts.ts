// Every wait's deadline, with the reason it is that long (as the e2e framework's TimeoutContext).
// Callers copy this table (defaultTimeouts()) and may override entries from the config file.

export interface Timeouts {
  /** Preflight GET /version: an unreachable server must be reported within seconds. */
  preflightConnect: number;
  /** A node that turned NotReady moments ago (a flap, a kubelet restart): discovery waits this long for it. */
  nodeFlap: number;
  /** Pod start: Windows images are multi-GB (servercore, IIS); a cold pull takes minutes. */
  podStart: number;
  /** Pods expected to stay Pending (taints): long enough for the scheduler to have tried. */
  podUnschedulable: number;
  /** Deployment/DaemonSet rollouts: several pods starting, each as slow as podStart. */
  rollout: number;
  /**
   * A workload's controller writing status.observedGeneration for its current spec: it does on its
   * first sync, within seconds (a busy controller-manager's work queue, a leader election). None by
   * then: no controller acts on it, and the rollout will not come.
   */
  controllerObserve: number;
  /** One exec round trip (curl.exe has its own 10 s connect timeout inside). */
  exec: number;
  /**
   * A rebooted node back in service (a new bootID and Ready): upstream's reboot_node.go waits 10
   * minutes for its pod to restart on the rebooted node.
   */
  nodeReboot: number;
  /**
   * A node's memory pressure: upstream's eviction.go waits 10 minutes for the memory-pressure taint
   * to be gone before it begins, 10 minutes for the eviction, and 10 more for the node to be
   * schedulable again (the kubelet keeps MemoryPressure for evictionPressureTransitionPeriod, 5 min).
   */
  memoryPressure: number;
  /** Namespace deletion: Windows containers stop slowly (HCS shutdown), finalizers run. */
  namespaceDelete: number;
  /**
   * A deleted pod gone from the API (its grace period, the containers stopped, its volumes torn
   * down): upstream's subpath_cleanup.go waits 5 minutes (WaitForPodNotFoundInNamespace).
   */
  podGone: number;
  /**
   * A deleted pod still there once a control pod deleted with it, on the same node and with the
   * same volumes, is gone: the kubelet's status manager finishes a deletion in its next batch sync
   * (every 10 s) once the volumes are torn down. The wait is at least as long as the control took.
   */
  podGoneConfirm: number;
  /** A single check, end to end, fixtures included. */
  check: number;
  /** Network path warm-up: a pass must come within it (upstream test/e2e/windows: 30 s). */
  netWarmup: number;
  /** Network path steady period after the first pass: every probe must pass (upstream: 10 s). */
  netSteady: number;
  /**
   * A limitation's negative, once a positive control from the same client answered: the control
   * proves the client is up and its path warm, so the warm-up shrinks to this (a few polls).
   */
  netConfirm: number;
  /** Poll interval of network probes during warm-up and steady periods (upstream: 1 s). */
  netPoll: number;
  /** Connect timeout of one network probe (upstream curl.exe --connect-timeout 10 / nc -w 10). */
  netConnect: number;
  /** A LoadBalancer Service getting an ingress address: cloud provisioners take 1-3 minutes. */
  netLoadBalancer: number;
  /**
   * Without a known provisioner: how long to wait for one to act on the Service (an ingress, an
   * event on it from any component, a finalizer) before concluding there is none. A cloud's service
   * controller acts within seconds of the Service's creation; the address may take minutes.
   */
  netLoadBalancerActs: number;
  /** Pre-pulling every Windows image on its nodes: upstream Windows e2e jobs allow 30 minutes. */
  prepull: number;
  /** How often the pre-pull phase prints what it still waits for. */
  prepullProgress: number;
}

const DEFAULTS: Timeouts = {
  preflightConnect: 5_000,
  nodeFlap: 30_000,
  podStart: 10 * 60_000,
  podUnschedulable: 30_000,
  rollout: 10 * 60_000,
  controllerObserve: 60_000,
  exec: 60_000,
  nodeReboot: 10 * 60_000,
  memoryPressure: 10 * 60_000,
  namespaceDelete: 5 * 60_000,
  podGone: 5 * 60_000,
  podGoneConfirm: 10_000,
  check: 15 * 60_000,
  netWarmup: 30_000,
  netSteady: 10_000,
  netConfirm: 3_000,
  netPoll: 1_000,
  netConnect: 10_000,
  netLoadBalancer: 3 * 60_000,
  netLoadBalancerActs: 30_000,
  prepull: 30 * 60_000,
  prepullProgress: 15_000,
};

export function defaultTimeouts(): Timeouts {
  return { ...DEFAULTS };
}
