// The Pod Security Standards checks, worded as k8s.io/pod-security-admission's policy
// package words them (ForbiddenReason + ForbiddenDetail), in its check-ID order. Version
// matters for Windows: from v1.25 a pod with spec.os.name=windows is exempt from the
// restricted allowPrivilegeEscalation, seccompProfile and capabilities checks.
// Not modelled: AppArmor, SELinux options, procMount and sysctls (no sim fixture uses them).

import type { V1Container, V1PodSpec, V1Volume } from '@kubernetes/client-node';

export type Level = 'privileged' | 'baseline' | 'restricted';
export const LEVELS: Level[] = ['privileged', 'baseline', 'restricted'];

export interface Violation {
  reason: string;
  detail: string;
}

interface Check {
  id: string;
  level: Exclude<Level, 'privileged'>;
  /** Restricted checks that replace a baseline one (OverrideCheckIDs). */
  overrides?: string;
  run(spec: V1PodSpec, minor: number): Violation | undefined;
}

const joinQuote = (items: string[]) => (items.length ? `"${items.join('", "')}"` : '');
const pluralize = (one: string, many: string, n: number) => (n === 1 ? one : many);
const named = (one: string, many: string, names: string[]) => `${pluralize(one, many, names.length)} ${joinQuote(names)}`;

function containers(spec: V1PodSpec): V1Container[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...((spec.ephemeralContainers ?? []) as V1Container[])];
}

const isWindows = (spec: V1PodSpec) => spec.os?.name === 'windows';

const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);
const RESTRICTED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

/** The volume's source field name as the check reports it (hostPath, nfs, ...). */
function volumeType(v: V1Volume): string {
  return Object.keys(v).find(k => k !== 'name') ?? 'unknown';
}

const CHECKS: Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    run(spec, minor) {
      if (minor >= 25 && isWindows(spec)) return undefined;
      const bad = containers(spec)
        .filter(c => c.securityContext?.allowPrivilegeEscalation !== false)
        .map(c => c.name);
      return bad.length
        ? {
            reason: 'allowPrivilegeEscalation != false',
            detail: `${named('container', 'containers', bad)} must set securityContext.allowPrivilegeEscalation=false`,
          }
        : undefined;
    },
  },
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    run(spec) {
      const bad: string[] = [];
      const caps = new Set<string>();
      for (const c of containers(spec)) {
        const extra = (c.securityContext?.capabilities?.add ?? []).filter(x => !BASELINE_CAPABILITIES.has(x));
        if (extra.length) {
          bad.push(c.name);
          extra.forEach(x => caps.add(x));
        }
      }
      return bad.length
        ? {
            reason: 'non-default capabilities',
            detail: `${named('container', 'containers', bad)} must not include ${joinQuote([...caps].sort())} in securityContext.capabilities.add`,
          }
        : undefined;
    },
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    overrides: 'capabilities_baseline',
    run(spec, minor) {
      if (minor >= 25 && isWindows(spec)) return undefined;
      const missingDrop: string[] = [],
        adding: string[] = [];
      const caps = new Set<string>();
      for (const c of containers(spec)) {
        const cap = c.securityContext?.capabilities;
        if (!cap?.drop?.includes('ALL')) missingDrop.push(c.name);
        const extra = (cap?.add ?? []).filter(x => x !== 'NET_BIND_SERVICE');
        if (extra.length) {
          adding.push(c.name);
          extra.forEach(x => caps.add(x));
        }
      }
      const details: string[] = [];
      if (missingDrop.length) details.push(`${named('container', 'containers', missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
      if (adding.length)
        details.push(`${named('container', 'containers', adding)} must not include ${joinQuote([...caps].sort())} in securityContext.capabilities.add`);
      return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
    },
  },
  {
    id: 'hostNamespaces',
    level: 'baseline',
    run(spec) {
      const on = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter(k => spec[k]).map(k => `${k}=true`);
      return on.length ? { reason: 'host namespaces', detail: on.join(', ') } : undefined;
    },
  },
  {
    id: 'hostPathVolumes',
    level: 'baseline',
    run(spec) {
      const bad = (spec.volumes ?? []).filter(v => v.hostPath).map(v => v.name);
      return bad.length ? { reason: 'hostPath volumes', detail: named('volume', 'volumes', bad) } : undefined;
    },
  },
  {
    id: 'hostPorts',
    level: 'baseline',
    run(spec) {
      const bad: string[] = [];
      const ports = new Set<string>();
      for (const c of containers(spec)) {
        const used = (c.ports ?? []).filter(p => p.hostPort).map(p => String(p.hostPort));
        if (used.length) {
          bad.push(c.name);
          used.forEach(p => ports.add(p));
        }
      }
      return bad.length
        ? {
            reason: 'hostPort',
            detail: `${named('container', 'containers', bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', ports.size)} ${[...ports].sort().join(', ')}`,
          }
        : undefined;
    },
  },
  {
    id: 'privileged',
    level: 'baseline',
    run(spec) {
      const bad = containers(spec)
        .filter(c => c.securityContext?.privileged)
        .map(c => c.name);
      return bad.length ? { reason: 'privileged', detail: `${named('container', 'containers', bad)} must not set securityContext.privileged=true` } : undefined;
    },
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    run(spec) {
      const bad = (spec.volumes ?? []).filter(v => !RESTRICTED_VOLUME_SOURCES.some(k => k in v && (v as unknown as Record<string, unknown>)[k] !== undefined));
      if (!bad.length) return undefined;
      const types = [...new Set(bad.map(volumeType))].sort();
      return {
        reason: 'restricted volume types',
        detail: `${named(
          'volume',
          'volumes',
          bad.map(v => v.name),
        )} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
      };
    },
  },
  {
    id: 'runAsNonRoot',
    level: 'restricted',
    run(spec) {
      const badSetters: string[] = [];
      const podValue = spec.securityContext?.runAsNonRoot;
      if (podValue === false) badSetters.push('pod');
      const explicit: string[] = [],
        implicit: string[] = [];
      for (const c of containers(spec)) {
        const v = c.securityContext?.runAsNonRoot;
        if (v === false) explicit.push(c.name);
        else if (v === undefined && podValue !== true) implicit.push(c.name);
      }
      if (explicit.length) badSetters.push(named('container', 'containers', explicit));
      if (badSetters.length) return { reason: 'runAsNonRoot != true', detail: `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
      return implicit.length
        ? { reason: 'runAsNonRoot != true', detail: `pod or ${named('container', 'containers', implicit)} must set securityContext.runAsNonRoot=true` }
        : undefined;
    },
  },
  {
    id: 'runAsUser',
    level: 'restricted',
    run(spec) {
      const setters: string[] = [];
      if (spec.securityContext?.runAsUser === 0) setters.push('pod');
      const bad = containers(spec)
        .filter(c => c.securityContext?.runAsUser === 0)
        .map(c => c.name);
      if (bad.length) setters.push(named('container', 'containers', bad));
      return setters.length ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
    },
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    run(spec) {
      const setters: string[] = [];
      if (spec.securityContext?.seccompProfile?.type === 'Unconfined') setters.push('pod');
      const bad = containers(spec)
        .filter(c => c.securityContext?.seccompProfile?.type === 'Unconfined')
        .map(c => c.name);
      if (bad.length) setters.push(named('container', 'containers', bad));
      return setters.length
        ? { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to "Unconfined"` }
        : undefined;
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    overrides: 'seccompProfile_baseline',
    run(spec, minor) {
      if (minor >= 25 && isWindows(spec)) return undefined;
      const valid = (t: string | undefined) => t === 'RuntimeDefault' || t === 'Localhost';
      const setters: string[] = [];
      const badValues = new Set<string>();
      const podType = spec.securityContext?.seccompProfile?.type;
      if (podType !== undefined && !valid(podType)) {
        setters.push('pod');
        badValues.add(podType);
      }
      const podSet = podType !== undefined && valid(podType);
      const explicit: string[] = [],
        implicit: string[] = [];
      for (const c of containers(spec)) {
        const t = c.securityContext?.seccompProfile?.type;
        if (t !== undefined) {
          if (!valid(t)) {
            explicit.push(c.name);
            badValues.add(t);
          }
        } else if (!podSet) implicit.push(c.name);
      }
      if (explicit.length) setters.push(named('container', 'containers', explicit));
      if (setters.length)
        return {
          reason: 'seccompProfile',
          detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote([...badValues].sort())}`,
        };
      return implicit.length
        ? {
            reason: 'seccompProfile',
            detail: `pod or ${named('container', 'containers', implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
          }
        : undefined;
    },
  },
  {
    id: 'windowsHostProcess',
    level: 'baseline',
    run(spec) {
      const setters: string[] = [];
      if (spec.securityContext?.windowsOptions?.hostProcess) setters.push('pod');
      const bad = containers(spec)
        .filter(c => c.securityContext?.windowsOptions?.hostProcess)
        .map(c => c.name);
      if (bad.length) setters.push(named('container', 'containers', bad));
      return setters.length
        ? { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` }
        : undefined;
    },
  },
];

/** The violations of `level` at policy version 1.<minor>, in the check order upstream reports them. */
export function evaluatePodSpec(level: Level, minor: number, spec: V1PodSpec): Violation[] {
  if (level === 'privileged') return [];
  const active = CHECKS.filter(c => level === 'restricted' || c.level === 'baseline');
  const overridden = new Set(active.map(c => c.overrides).filter(Boolean));
  return active
    .filter(c => !overridden.has(c.id))
    .map(c => c.run(spec, minor))
    .filter((v): v is Violation => !!v);
}

export const describeViolations = (vs: Violation[]) => vs.map(v => `${v.reason} (${v.detail})`).join(', ');
