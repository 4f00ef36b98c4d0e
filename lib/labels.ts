// Label keys the harness writes or reads, in one place.

/** On every object a run creates: cleanup and `wincheck cleanup` find them by it. */
export const RUN_LABEL = 'wincheck.io/run-id';
/** Which fixture an object belongs to. */
export const FIXTURE_LABEL = 'wincheck.io/fixture';
/** On the per-node HostProcess pods of node access ("hostprocess"): one watch waits for all of them. */
export const NODE_ACCESS_LABEL = 'wincheck.io/node-access';
/** Set by the kubelet on Windows nodes: "10.0.20348". */
export const WINDOWS_BUILD_LABEL = 'node.kubernetes.io/windows-build';
/** On a run's namespace: when the run last said it is alive (ISO time); see lib/cluster/lease.ts. */
export const HEARTBEAT_ANNOTATION = 'wincheck.io/heartbeat';
/** On a run's namespace: "<host>/<pid>" of the process holding its lease. */
export const HOLDER_ANNOTATION = 'wincheck.io/holder';
