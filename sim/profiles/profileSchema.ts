// The shape of a profile YAML file, field by field (see ./types.ts for the meaning),
// plus the checks that span fields (duplicate node names, Windows-only fields).

import {
  type AdmissionWebhookSpec,
  BREAKABLE,
  POD_FAILURE_STAGES,
  type AddonSpec,
  type BackgroundSpec,
  type NodePoolSpec,
  type ReplayEntry,
  type NetworkSpec,
  type NodeSpec,
  type PodSecurityConfig,
  type Profile,
  type WindowsLayoutSpec,
} from './types.ts';
import { LIMITATION_KEYS } from './limitations.ts';
import { SchemaError, check, type Rule } from './schema.ts';

const QUANTITY = { kind: 'string', pattern: /^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/, shape: 'a quantity such as 4, 500m or 8Gi' } as const;
const K8S_VERSION = { kind: 'string', pattern: /^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$/, shape: 'v1.33.1' } as const;
const PSA_LEVEL = { kind: 'enum', values: ['privileged', 'baseline', 'restricted'], what: 'Pod Security level' } as const;
const PSA_VERSION = { kind: 'string', pattern: /^(latest|v1\.[0-9]+)$/, shape: 'latest or v1.30' } as const;
const DNS_LABEL = { kind: 'string', pattern: /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, shape: 'a lowercase DNS name such as win-1' } as const;

const PODS = { kind: 'string', pattern: /^[0-9]+$/, shape: 'a whole number such as 110' } as const;
const LABEL_KEY = {
  kind: 'string',
  pattern: /^([a-z0-9.-]+\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/,
  shape: 'a label key such as node.kubernetes.io/windows-build',
} as const;
const BREAKS: Rule = { kind: 'array', of: { kind: 'enum', values: BREAKABLE, what: 'break' } };
const LIMITATIONS: Rule = { kind: 'object', what: 'limitation', fields: Object.fromEntries(LIMITATION_KEYS.map(k => [k, { kind: 'boolean' } as Rule])) };

const taint: Rule = {
  kind: 'object',
  required: ['key', 'effect'],
  fields: {
    key: { kind: 'string', pattern: /^([a-z0-9.-]+\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/, shape: 'a label key such as os' },
    value: { kind: 'string' },
    effect: { kind: 'enum', values: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'], what: 'taint effect' },
  },
};

// `satisfies Record<keyof T, Rule>`: a field added to the types fails to compile here
// until the loader knows how to check it.
const node: Rule = {
  kind: 'object',
  required: ['name', 'os'],
  fields: {
    name: DNS_LABEL,
    os: { kind: 'enum', values: ['linux', 'windows'], what: 'node OS' },
    role: { kind: 'enum', values: ['control-plane', 'worker'], what: 'node role' },
    // Three parts as old kubelets reported it (10.0.14393), or four.
    windowsBuild: { kind: 'string', pattern: /^10\.0\.[0-9]{5}(\.[0-9]+)?$/, shape: '10.0.NNNNN.N' },
    // Any version string a runtime reports: containerd://1.19, docker://Unknown, containerd://1.7.17+azure.
    containerRuntime: { kind: 'string', pattern: /^[a-z][-a-z0-9]*:\/\/\S+$/, shape: 'containerd://1.7.20' },
    kubeletVersion: K8S_VERSION,
    taints: { kind: 'array', of: taint },
    labels: { kind: 'map', of: { kind: 'string' } },
    omitBetaOSLabel: { kind: 'boolean' },
    capacity: { kind: 'object', fields: { cpu: QUANTITY, memory: QUANTITY, pods: PODS, 'ephemeral-storage': QUANTITY } },
    reservedMemory: QUANTITY,
    reservedCpu: QUANTITY,
    ssh: { kind: 'boolean' },
    ready: { kind: 'boolean' },
    unschedulable: { kind: 'boolean' },
    removeLabels: { kind: 'array', of: LABEL_KEY },
    annotations: { kind: 'map', of: { kind: 'string' } },
    hostname: DNS_LABEL,
    addresses: {
      kind: 'array',
      of: {
        kind: 'object',
        required: ['type', 'address'],
        fields: { type: { kind: 'enum', values: ['ExternalIP', 'InternalDNS', 'ExternalDNS'], what: 'address type' }, address: { kind: 'string' } },
      },
    },
    osImage: { kind: 'string' },
    kernelVersion: { kind: 'string' },
    extendedResources: { kind: 'map', of: QUANTITY },
    allocatable: { kind: 'object', fields: { cpu: QUANTITY, memory: QUANTITY, pods: PODS, 'ephemeral-storage': QUANTITY } },
    conditions: {
      kind: 'array',
      of: {
        kind: 'object',
        required: ['type', 'status'],
        fields: {
          type: { kind: 'string', pattern: /^[A-Za-z][A-Za-z0-9]*$/, shape: 'a condition type such as OutOfDisk' },
          status: { kind: 'enum', values: ['True', 'False', 'Unknown'], what: 'condition status' },
          reason: { kind: 'string' },
          message: { kind: 'string' },
        },
      },
    },
    breaks: BREAKS,
    limitations: LIMITATIONS,
  } satisfies Record<keyof NodeSpec, Rule>,
};

const nodeFields = (node as Extract<Rule, { kind: 'object' }>).fields;
/** A pool's template: a node without its name (the pool names its nodes). */
const template: Rule = { kind: 'object', required: ['os'], fields: Object.fromEntries(Object.entries(nodeFields).filter(([k]) => k !== 'name')) };

const nodePool: Rule = {
  kind: 'object',
  required: ['name', 'count', 'template'],
  fields: {
    name: DNS_LABEL,
    count: { kind: 'number', min: 1, max: 1000 },
    template,
  } satisfies Record<keyof NodePoolSpec, Rule>,
};

const background: Rule = {
  kind: 'object',
  required: ['namespaces', 'podsPerNode'],
  fields: {
    namespaces: { kind: 'number', min: 1, max: 10000 },
    podsPerNode: { kind: 'number', min: 0, max: 250 },
    requests: { kind: 'object', fields: { cpu: QUANTITY, memory: QUANTITY } },
  } satisfies Record<keyof BackgroundSpec, Rule>,
};

const GLOB = { kind: 'string', pattern: /^\S+$/, shape: 'a glob such as win-*' } as const;

const replayEntry: Rule = {
  kind: 'object',
  required: ['id'],
  what: 'replay field',
  fields: {
    id: { kind: 'string', pattern: /^[A-Za-z0-9][-A-Za-z0-9_.]*$/, shape: 'a name such as sc-kubelet-pid' },
    on: { kind: 'enum', values: ['node', 'pod'], what: 'place (node: HostProcess pod or SSH; pod: inside a container)' },
    nodes: GLOB,
    command: { kind: 'string' },
    stdout: { kind: 'string' },
    stderr: { kind: 'string' },
    exitCode: { kind: 'number', min: -1, max: 4294967295 },
    podFailure: {
      kind: 'object',
      required: ['stage', 'message'],
      what: 'podFailure field',
      fields: {
        match: { kind: 'object', what: 'match field', fields: { nodes: GLOB, images: GLOB, runtimeClassName: GLOB } },
        stage: { kind: 'enum', values: POD_FAILURE_STAGES, what: 'stage' },
        reason: { kind: 'string', pattern: /^[A-Za-z][A-Za-z0-9]*$/, shape: 'an event reason such as FailedCreatePodSandBox' },
        message: { kind: 'string' },
        times: { kind: 'number', min: 1, max: 1000 },
      },
    },
  } satisfies Record<keyof ReplayEntry, Rule>,
};

/** Checks across a replay entry's fields: a command answer or a pod failure, a regex that compiles, unique ids. */
function checkReplay(entries: ReplayEntry[] | undefined): void {
  const seen = new Map<string, number>();
  (entries ?? []).forEach((e, i) => {
    const at = `replay[${i}]`;
    const first = seen.get(e.id);
    if (first !== undefined) throw new SchemaError(`${at}.id`, `"${e.id}" is already used by replay[${first}]`);
    seen.set(e.id, i);
    if (e.podFailure) {
      for (const k of ['on', 'nodes', 'command', 'stdout', 'stderr', 'exitCode'] as const)
        if (e[k] !== undefined) throw new SchemaError(`${at}.${k}`, 'is not allowed beside podFailure (put node globs in podFailure.match)');
      return;
    }
    if (e.command === undefined) throw new SchemaError(`${at}.command`, 'is required (or give podFailure)');
    if (e.on === undefined) throw new SchemaError(`${at}.on`, 'is required with command: node or pod');
    try {
      new RegExp(e.command);
    } catch (err) {
      throw new SchemaError(`${at}.command`, `must be a regular expression: ${(err as Error).message}`);
    }
  });
}

export const PROFILE_RULE: Rule = {
  kind: 'object',
  required: ['name', 'kubernetesVersion', 'network'],
  fields: {
    name: { kind: 'string', pattern: /^[a-z0-9][-a-z0-9]*$/, shape: 'a lowercase name such as my-cluster' },
    description: { kind: 'string' },
    kubernetesVersion: K8S_VERSION,
    nodes: { kind: 'array', of: node },
    nodePools: { kind: 'array', of: nodePool },
    background,
    network: {
      kind: 'object',
      required: ['mode', 'cni'],
      fields: {
        mode: { kind: 'enum', values: ['l2bridge', 'overlay', 'host-gw'], what: 'network mode' },
        cni: { kind: 'string', pattern: /^[a-z0-9][-a-z0-9]*$/, shape: 'a CNI name such as flannel' },
        dualStack: { kind: 'boolean' },
        kubeProxyEnableDSR: { kind: 'boolean' },
        networkPolicy: { kind: 'enum', values: ['calico', 'antrea', 'azure-npm', 'none'], what: 'NetworkPolicy engine' },
        clusterDomain: { kind: 'string', pattern: /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, shape: 'cluster.local' },
      } satisfies Record<keyof NetworkSpec, Rule>,
    },
    addons: {
      kind: 'object',
      fields: {
        metricsServer: { kind: 'boolean' },
        defaultStorageClass: { kind: 'boolean' },
        loadBalancer: { kind: 'boolean' },
        hypervRuntimeClass: { kind: 'boolean' },
        windowsRuntimeClasses: { kind: 'boolean' },
        directxDevicePlugin: { kind: 'boolean' },
      } satisfies Record<keyof AddonSpec, Rule>,
    },
    limitations: LIMITATIONS,
    breaks: BREAKS,
    featureGates: { kind: 'map', of: { kind: 'boolean' } },
    registryMirrors: {
      kind: 'array',
      of: { kind: 'string', pattern: /^[a-z0-9.-]+(:[0-9]+)?(\/[a-z0-9._-]+)*$/, shape: 'a registry host such as mirror.example.com' },
    },
    imagePullLatencyMs: { kind: 'number', min: 0 },
    terminationGraceScale: { kind: 'number', min: 0 },
    tokenLifetimeScale: { kind: 'number', min: 0 },
    apiTimeScale: { kind: 'number', min: 0.001 },
    rebootScale: { kind: 'number', min: 0 },
    evictionScale: { kind: 'number', min: 0 },
    shutdownGracePeriod: { kind: 'string', pattern: /^(\d+(\.\d+)?(ms|h|m|s))+$/, shape: 'a Go duration such as 20s or 1m30s' },
    shutdownGracePeriodCriticalPods: { kind: 'string', pattern: /^(\d+(\.\d+)?(ms|h|m|s))+$/, shape: 'a Go duration such as 10s' },
    unavailableAPIServices: {
      kind: 'array',
      of: { kind: 'string', pattern: /^[a-z0-9.-]+\/v[0-9a-z]+$/, shape: 'a group/version such as custom.metrics.k8s.io/v1beta1' },
    },
    podSecurity: {
      kind: 'object',
      fields: {
        defaults: {
          kind: 'object',
          fields: Object.fromEntries(
            ['enforce', 'audit', 'warn'].flatMap(m => [
              [m, PSA_LEVEL],
              [`${m}-version`, PSA_VERSION],
            ]),
          ),
        },
        exemptions: {
          kind: 'object',
          fields: {
            usernames: { kind: 'array', of: { kind: 'string' } },
            runtimeClasses: { kind: 'array', of: DNS_LABEL },
            namespaces: { kind: 'array', of: DNS_LABEL },
          },
        },
        enforceFloor: { kind: 'boolean' },
      } satisfies Record<keyof PodSecurityConfig, Rule>,
    },
    admissionWebhooks: {
      kind: 'array',
      of: {
        kind: 'object',
        required: ['name', 'rejects', 'message'],
        fields: {
          name: { kind: 'string', pattern: /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, shape: 'a webhook name such as validate.kyverno.svc-fail' },
          rejects: {
            kind: 'object',
            fields: {
              kinds: { kind: 'array', of: { kind: 'string' } },
              operations: { kind: 'array', of: { kind: 'enum', values: ['CREATE', 'UPDATE'], what: 'operation' } },
              labels: { kind: 'array', of: { kind: 'string' } },
            },
          },
          message: { kind: 'string' },
          code: { kind: 'number', min: 400, max: 599 },
        } satisfies Record<keyof AdmissionWebhookSpec, Rule>,
      },
    },
    latencies: {
      kind: 'object',
      fields: {
        windowsPullMs: { kind: 'number', min: 0 },
        linuxPullMs: { kind: 'number', min: 0 },
        windowsStartMs: { kind: 'number', min: 0 },
        linuxStartMs: { kind: 'number', min: 0 },
        loadBalancerIngressMs: { kind: 'number', min: 0 },
      } satisfies Record<keyof NonNullable<Profile['latencies']>, Rule>,
    },
    pullLatency: {
      kind: 'object',
      required: ['mbPerSecond', 'scale'],
      fields: { mbPerSecond: { kind: 'number', min: 0.001 }, scale: { kind: 'number', min: 0 } },
    },
    windowsLayout: {
      kind: 'object',
      fields: {
        kubeProxy: { kind: 'enum', values: ['service', 'daemonset', 'both'], what: 'kube-proxy layout' },
        kubeProxyServiceName: { kind: 'string', pattern: /^[A-Za-z0-9][-A-Za-z0-9_]*$/, shape: 'a service name such as kubeproxy' },
        hnsModule: { kind: 'boolean' },
        hnsdiag: { kind: 'boolean' },
      } satisfies Record<keyof WindowsLayoutSpec, Rule>,
    },
    replay: { kind: 'array', of: replayEntry },
    faults: {
      kind: 'object',
      fields: {
        seed: { kind: 'number' },
        apiErrorRate: { kind: 'number', min: 0, max: 1 },
        dropWatchRate: { kind: 'number', min: 0, max: 1 },
        watchExpiredRate: { kind: 'number', min: 0, max: 1 },
        connResetRate: { kind: 'number', min: 0, max: 1 },
        slowRate: { kind: 'number', min: 0, max: 1 },
        nodeFlap: {
          kind: 'object',
          fields: {
            node: { kind: 'string' },
            afterMs: { kind: 'number', min: 0 },
            forMs: { kind: 'number', min: 0 },
            everyMs: { kind: 'number', min: 0 },
          },
        },
      },
    },
  } satisfies Record<keyof Profile, Rule>,
};

function uniqueBreaks(breaks: readonly string[] | undefined, path: string): void {
  (breaks ?? []).forEach((b, i) => {
    const first = breaks!.indexOf(b);
    if (first !== i) throw new SchemaError(`${path}[${i}]`, `"${b}" is already listed at ${path}[${first}]`);
  });
}

/** Nodes the loader made from pools (a profile loaded again, as a base, keeps only its listed ones and expands anew). */
const POOL_NODES = new WeakSet<NodeSpec>();

/** The pools' nodes, `<pool>-<n>`, each a copy of its template. */
function expandPools(pools: NodePoolSpec[]): { node: NodeSpec; at: string }[] {
  return pools.flatMap((pool, i) =>
    Array.from({ length: pool.count }, (_, j) => {
      const n: NodeSpec = { ...structuredClone(pool.template), name: `${pool.name}-${j + 1}` };
      POOL_NODES.add(n);
      return { node: n, at: `nodePools[${i}].template` };
    }),
  );
}

/** Checks a parsed YAML document and returns it as a Profile; throws SchemaError naming the field. */
export function validateProfile(doc: unknown): Profile {
  check(PROFILE_RULE, doc, '');
  const p = doc as Profile;
  const listed = (p.nodes ?? []).filter(n => !POOL_NODES.has(n)).map((node, i) => ({ node, at: `nodes[${i}]` }));
  (p.nodePools ?? []).forEach((pool, i) => {
    const clash = (p.nodePools ?? []).findIndex(o => o.name === pool.name);
    if (clash !== i) throw new SchemaError(`nodePools[${i}].name`, `"${pool.name}" is already used by nodePools[${clash}]`);
  });
  const all = [...listed, ...expandPools(p.nodePools ?? [])];
  if (all.length === 0) throw new SchemaError('nodes', 'must list at least one node (in nodes or nodePools)');
  const seen = new Map<string, string>();
  for (const { node: n, at } of all) {
    const first = seen.get(n.name);
    if (first !== undefined)
      throw new SchemaError(at.startsWith('nodes[') ? `${at}.name` : at.replace(/\.template$/, '.name'), `"${n.name}" is already used by ${first}`);
    seen.set(n.name, at.startsWith('nodes[') ? at : `${at.replace(/\.template$/, '')} (node ${n.name})`);
    if (n.os === 'windows' && !n.windowsBuild) throw new SchemaError(`${at}.windowsBuild`, 'is required for a Windows node (e.g. 10.0.20348.2582)');
    if (n.os === 'linux' && n.windowsBuild) throw new SchemaError(`${at}.windowsBuild`, 'is only allowed on a Windows node');
    if (n.os === 'linux' && n.ssh) throw new SchemaError(`${at}.ssh`, 'is only allowed on a Windows node (the sim runs OpenSSH on Windows nodes only)');
    for (const r of Object.keys(n.extendedResources ?? {}))
      if (!/^[a-z0-9.-]+\/[A-Za-z0-9][-A-Za-z0-9_.]*$/.test(r))
        throw new SchemaError(`${at}.extendedResources.${r}`, 'must be a domain-prefixed name such as nvidia.com/gpu');
    (n.conditions ?? []).forEach((c, j) => {
      if (c.type === 'Ready')
        throw new SchemaError(`${at}.conditions[${j}].type`, `must not be Ready (set ${at.startsWith('nodes[') ? 'nodes[].ready' : `${at}.ready`} instead)`);
    });
    uniqueBreaks(n.breaks, `${at}.breaks`);
  }
  p.nodes = all.map(x => x.node);
  uniqueBreaks(p.breaks, 'breaks');
  checkReplay(p.replay);
  p.addons ??= {};
  return p;
}
