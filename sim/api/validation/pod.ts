// Pod spec validation (ValidatePodSpec and validateWindows of pkg/apis/core/validation),
// for pods and workload templates: the rules real clients meet, and the Windows rules
// of the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) ("Pods with spec.os.name: windows are validated by the API server").

import type { V1Container, V1EphemeralContainer, V1PodSpec, V1PodSecurityContext, V1SecurityContext } from '@kubernetes/client-node';
import { duplicate, forbidden, invalid, notFound, notSupported, required, type FieldError } from './errors.ts';
import { isDNS1123Label, isEnvVarName, isRelaxedEnvVarName } from './names.ts';

export interface PodRules {
  /** RelaxedEnvironmentVariableValidation: any printable ASCII but '=' in env names. */
  relaxedEnvNames: boolean;
  /** Enforce the Linux-only field rules on spec.os.name=windows pods. */
  windowsRules: boolean;
  /** Deliberate regression: the API rejects any pod that sets spec.os. */
  rejectOSField: boolean;
  /** KEP-4960: on spec.os.name=windows pods only SIGTERM and SIGKILL (false: a deliberate regression). */
  windowsStopSignals: boolean;
}

/** The signals KEP-4960 allows in lifecycle.stopSignal per pod OS (validation's supportedStopSignals*). */
const WINDOWS_STOP_SIGNALS = ['SIGKILL', 'SIGTERM'];
const LINUX_STOP_SIGNALS = new Set(
  'SIGABRT SIGALRM SIGBUS SIGCHLD SIGCLD SIGCONT SIGFPE SIGHUP SIGILL SIGINT SIGIO SIGIOT SIGKILL SIGPIPE SIGPOLL SIGPROF SIGPWR SIGQUIT SIGSEGV SIGSTKFLT SIGSTOP SIGSYS SIGTERM SIGTRAP SIGTSTP SIGTTIN SIGTTOU SIGURG SIGUSR1 SIGUSR2 SIGVTALRM SIGWINCH SIGXCPU SIGXFSZ SIGRTMIN SIGRTMAX'.split(
    ' ',
  ),
);

/** lifecycle.stopSignal needs spec.os.name, and a signal of that OS (KEP-4960 cross validation). */
function stopSignalErrors(spec: V1PodSpec, path: string, rules: PodRules): FieldError[] {
  const errs: FieldError[] = [];
  for (const [c, cpath] of containersWithPath(spec, path)) {
    const signal = (c.lifecycle as { stopSignal?: string } | undefined)?.stopSignal;
    if (signal === undefined) continue;
    const f = `${cpath}.lifecycle.stopSignal`;
    const os = spec.os?.name;
    if (!os) errs.push(forbidden(f, 'may not be set for containers with empty `spec.os.name`'));
    else if (os === 'windows' && rules.windowsStopSignals && !WINDOWS_STOP_SIGNALS.includes(signal)) errs.push(notSupported(f, signal, WINDOWS_STOP_SIGNALS));
    else if (os === 'linux' && !LINUX_STOP_SIGNALS.has(signal) && !/^SIGRTM(IN|AX)[-+]\d+$/.test(signal))
      errs.push(notSupported(f, signal, [...LINUX_STOP_SIGNALS]));
  }
  return errs;
}

const WINDOWS = 'cannot be set for a windows pod';

// Pod-level fields, in validateWindows' order: securityContext.<field> ...
const POD_SC_FIELDS: (keyof V1PodSecurityContext)[] = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'fsGroup',
  'fsGroupChangePolicy',
  'sysctls',
  'runAsUser',
  'runAsGroup',
  'supplementalGroups',
  'supplementalGroupsPolicy',
  'seLinuxChangePolicy',
];
// ... and per container securityContext.<field>.
const CONTAINER_SC_FIELDS: (keyof V1SecurityContext)[] = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
];

const isSet = (v: unknown) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);

type AnyContainer = V1Container | V1EphemeralContainer;

/** Init containers, containers, ephemeral containers with their field paths (VisitContainersWithPath). */
function containersWithPath(spec: V1PodSpec, path: string): [AnyContainer, string][] {
  const out: [AnyContainer, string][] = [];
  (spec.initContainers ?? []).forEach((c, i) => out.push([c, `${path}.initContainers[${i}]`]));
  (spec.containers ?? []).forEach((c, i) => out.push([c, `${path}.containers[${i}]`]));
  (spec.ephemeralContainers ?? []).forEach((c, i) => out.push([c, `${path}.ephemeralContainers[${i}]`]));
  return out;
}

export function windowsErrors(spec: V1PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const sc = spec.securityContext;
  if (sc) for (const f of POD_SC_FIELDS) if (isSet(sc[f])) errs.push(forbidden(`${path}.securityContext.${f}`, WINDOWS));
  if (isSet(spec.hostUsers)) errs.push(forbidden(`${path}.hostUsers`, WINDOWS));
  if (spec.hostPID) errs.push(forbidden(`${path}.hostPID`, WINDOWS));
  if (spec.hostIPC) errs.push(forbidden(`${path}.hostIPC`, WINDOWS));
  if (isSet(spec.shareProcessNamespace)) errs.push(forbidden(`${path}.shareProcessNamespace`, WINDOWS));
  for (const [c, cpath] of containersWithPath(spec, path)) {
    const csc = c.securityContext;
    if (csc) for (const f of CONTAINER_SC_FIELDS) if (isSet(csc[f])) errs.push(forbidden(`${cpath}.securityContext.${f}`, WINDOWS));
  }
  return errs;
}

function portErrors(field: string, port: unknown): FieldError[] {
  if (typeof port !== 'number' || !Number.isInteger(port)) return [];
  return port < 1 || port > 65535 ? [invalid(field, port, 'must be between 1 and 65535, inclusive')] : [];
}

function containerErrors(c: AnyContainer, cpath: string, volumes: Set<string>, rules: PodRules, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(required(`${cpath}.name`));
  else {
    for (const m of isDNS1123Label(c.name)) errs.push(invalid(`${cpath}.name`, c.name, m));
    if (names.has(c.name)) errs.push(duplicate(`${cpath}.name`, c.name));
    names.add(c.name);
  }
  if (!c.image) errs.push(required(`${cpath}.image`));
  (c.ports ?? []).forEach((p, i) => {
    errs.push(...portErrors(`${cpath}.ports[${i}].containerPort`, p.containerPort));
    if (p.hostPort) errs.push(...portErrors(`${cpath}.ports[${i}].hostPort`, p.hostPort));
  });
  (c.env ?? []).forEach((e, i) => {
    const f = `${cpath}.env[${i}].name`;
    if (!e.name) {
      errs.push(required(f));
      return;
    }
    const msgs = rules.relaxedEnvNames ? isRelaxedEnvVarName(e.name) : isEnvVarName(e.name);
    for (const m of msgs) errs.push(invalid(f, e.name, m));
  });
  (c.volumeMounts ?? []).forEach((m, i) => {
    if (!m.name) errs.push(required(`${cpath}.volumeMounts[${i}].name`));
    else if (!volumes.has(m.name)) errs.push(notFound(`${cpath}.volumeMounts[${i}].name`, m.name));
    if (!m.mountPath) errs.push(required(`${cpath}.volumeMounts[${i}].mountPath`));
  });
  return errs;
}

/** ValidatePodSpec, the parts clients meet. `path` is "spec" or "spec.template.spec". */
export function podSpecErrors(spec: V1PodSpec | undefined, path: string, rules: PodRules): FieldError[] {
  if (!spec) return [required(path)];
  const errs: FieldError[] = [];
  const volumes = new Set<string>();
  (spec.volumes ?? []).forEach((v, i) => {
    const f = `${path}.volumes[${i}].name`;
    if (!v.name) {
      errs.push(required(f));
      return;
    }
    for (const m of isDNS1123Label(v.name)) errs.push(invalid(f, v.name, m));
    if (volumes.has(v.name)) errs.push(duplicate(f, v.name));
    volumes.add(v.name);
  });
  if (!spec.containers?.length) errs.push(required(`${path}.containers`));
  const names = new Set<string>();
  for (const [c, cpath] of containersWithPath(spec, path)) errs.push(...containerErrors(c, cpath, volumes, rules, names));
  errs.push(...stopSignalErrors(spec, path, rules));

  if (spec.os) {
    if (rules.rejectOSField) errs.push(forbidden(`${path}.os`, 'may not be set'));
    else if (!spec.os.name) errs.push(required(`${path}.os.name`));
    else if (spec.os.name !== 'linux' && spec.os.name !== 'windows') errs.push(notSupported(`${path}.os.name`, spec.os.name, ['linux', 'windows']));
    else if (spec.os.name === 'windows' && rules.windowsRules) errs.push(...windowsErrors(spec, path));
  }
  return errs;
}

/** JSON with sorted keys, so two specs compare by content. */
export function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter(k => (v as Record<string, unknown>)[k] !== undefined)
      .map(k => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const POD_UPDATE_MESSAGE =
  'pod updates may not change fields other than `spec.containers[*].image`,' +
  '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** ValidatePodUpdate: everything but images, activeDeadlineSeconds and added tolerations is immutable. */
export function podUpdateErrors(spec: V1PodSpec | undefined, old: V1PodSpec | undefined): FieldError[] {
  if (!spec || !old) return [];
  const mutable: V1PodSpec = structuredClone(spec);
  // Copy the fields allowed to change from the old spec, then the rest must be equal.
  mutable.containers = (mutable.containers ?? []).map((c, i) => ({ ...c, image: old.containers?.[i]?.image ?? c.image }));
  if (mutable.initContainers) mutable.initContainers = mutable.initContainers.map((c, i) => ({ ...c, image: old.initContainers?.[i]?.image ?? c.image }));
  mutable.activeDeadlineSeconds = old.activeDeadlineSeconds;
  mutable.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds;
  // Binding sets nodeName once; ephemeral containers and scheduling gates have their own paths.
  if (!old.nodeName) mutable.nodeName = old.nodeName;
  mutable.ephemeralContainers = old.ephemeralContainers;
  if (!mutable.schedulingGates?.length) mutable.schedulingGates = old.schedulingGates;
  const oldTol = (old.tolerations ?? []).map(stable);
  const newTol = (spec.tolerations ?? []).map(stable);
  if (oldTol.every(t => newTol.includes(t))) mutable.tolerations = old.tolerations;
  if (stable(mutable) === stable(old)) return [];
  return [forbidden('spec', POD_UPDATE_MESSAGE)];
}
