// Security (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Isolation and security", sec.*): runAsUserName, Linux-only fields with
// and without spec.os, privileged containers.

import type { V1Pod } from '@kubernetes/client-node';
import { apiStatusCode } from '../../cluster/apiError.ts';
import { ApiException } from '@kubernetes/client-node';
import { FixtureError } from '../../fixtures/errors.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import { asMeansError, MeansError } from '../../cluster/meansError.ts';
import { userRefusedOf } from '../../cluster/podFailures.ts';
import { control, fieldRejection, notStarted, refusedFor } from '../kit/observe.ts';
import { podSettles, podSettlesOrFinal } from '../kit/podWaits.ts';
import { describeStage, onByDefault, POD_OS_FIELD } from '../../facts/kubernetes.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { statusCausesOf } from '../../cluster/apiError.ts';
import { cite, sources } from '../../facts/sources.ts';

async function userOf(ctx: CheckContext, pod: string): Promise<{ user: string; evidence: EvidenceItem }> {
  const r = await ctx.probe(ctx.podTransport(pod, 'windows'), { kind: 'user-name' });
  return { user: r.ok ? r.evidence.stdout.trim() : '', evidence: r.evidence };
}

// ---- sec.linux-fields-rejected ------------------------------------------------------------

/** A Linux-only field, the path the API server names, and a value that sets it. */
export interface LinuxField {
  path: string;
  set(pod: V1Pod): void;
}

const podSC = (p: V1Pod) => (p.spec!.securityContext ??= {}) as Record<string, unknown>;
const ctrSC = (p: V1Pod) => (p.spec!.containers[0].securityContext ??= {}) as Record<string, unknown>;
const podField = (name: string, value: unknown): LinuxField => ({
  path: `spec.securityContext.${name}`,
  set: p => {
    podSC(p)[name] = value;
  },
});
const specField = (name: string, value: unknown): LinuxField => ({
  path: `spec.${name}`,
  set: p => {
    (p.spec as unknown as Record<string, unknown>)[name] = value;
  },
});
const ctrField = (name: string, value: unknown): LinuxField => ({
  path: `spec.containers[0].securityContext.${name}`,
  set: p => {
    ctrSC(p)[name] = value;
  },
});

/** the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Facts every probe needs": Forbidden with spec.os.name=windows. */
export const LINUX_ONLY_FIELDS: LinuxField[] = [
  podField('appArmorProfile', { type: 'RuntimeDefault' }),
  podField('seLinuxOptions', { level: 's0:c123,c456' }),
  podField('seccompProfile', { type: 'RuntimeDefault' }),
  podField('fsGroup', 2000),
  podField('fsGroupChangePolicy', 'OnRootMismatch'),
  podField('sysctls', [{ name: 'kernel.shm_rmid_forced', value: '0' }]),
  podField('runAsUser', 1000),
  podField('runAsGroup', 3000),
  podField('supplementalGroups', [4000]),
  podField('supplementalGroupsPolicy', 'Merge'),
  podField('seLinuxChangePolicy', 'MountOption'),
  specField('hostUsers', false),
  specField('hostPID', true),
  specField('hostIPC', true),
  specField('shareProcessNamespace', true),
  ctrField('appArmorProfile', { type: 'RuntimeDefault' }),
  ctrField('seLinuxOptions', { level: 's0:c123,c456' }),
  ctrField('seccompProfile', { type: 'RuntimeDefault' }),
  ctrField('capabilities', { add: ['NET_ADMIN'] }),
  ctrField('readOnlyRootFilesystem', true),
  ctrField('privileged', true),
  ctrField('allowPrivilegeEscalation', true),
  ctrField('procMount', 'Unmasked'),
  ctrField('runAsUser', 1000),
  ctrField('runAsGroup', 3000),
];

export type FieldVerdict = 'forbidden' | 'accepted' | 'dropped' | 'rejected-otherwise';

/** Reads a dotted path ("spec.containers[0].securityContext.privileged") out of an object. */
export function valueAt(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** How the API server answered a dry-run create of a pod carrying the field. */
export function fieldVerdict(path: string, created: unknown, error: unknown): { verdict: FieldVerdict; detail: string } {
  if (error === undefined) {
    return valueAt(created, path) === undefined
      ? { verdict: 'dropped', detail: 'accepted with the field dropped (unknown to this API server or its feature gate is off)' }
      : { verdict: 'accepted', detail: 'accepted (HTTP 201)' };
  }
  const code = apiStatusCode(error);
  const causes = error instanceof ApiException ? statusCausesOf(error.body) : [];
  const text = causes.join('; ') || (error instanceof Error ? error.message : String(error));
  const named =
    causes.some(c => c.startsWith(path) && /Forbidden|cannot be set for a windows pod/i.test(c)) ||
    (causes.length === 0 && text.includes(path) && /Forbidden/i.test(text));
  return code === 422 && named
    ? { verdict: 'forbidden', detail: `HTTP 422: ${causes.find(c => c.startsWith(path)) ?? text}` }
    : { verdict: 'rejected-otherwise', detail: `HTTP ${code ?? '?'}: ${text.slice(0, 300)}` };
}

function windowsPod(ctx: CheckContext, name: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ctx.namespace, labels: { ...ctx.labels } },
    spec: {
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [{ name: 'agnhost', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: ['pause'] }],
    },
  };
}

async function dryRunCreate(ctx: CheckContext, pod: V1Pod): Promise<{ created?: V1Pod; error?: unknown }> {
  try {
    return { created: await ctx.kube.core.createNamespacedPod({ namespace: ctx.namespace, body: pod, dryRun: 'All' }) };
  } catch (error) {
    return { error };
  }
}

async function linuxFieldsRejectedProbe(ctx: CheckContext): Promise<Observation> {
  const evidence: EvidenceItem[] = [];
  ctx.step('server-side dry run of a spec.os.name=windows pod without Linux-only fields (control)');
  const plain = await dryRunCreate(ctx, windowsPod(ctx, 'linux-fields-control'));
  if (plain.error)
    throw asMeansError(
      plain.error,
      'fixture',
      `the control pod (spec.os.name=windows, no Linux-only field) was rejected: ${fieldVerdict('', undefined, plain.error).detail}`,
    )!;
  const accepted0 = control(true, 'a spec.os.name=windows pod without Linux-only fields is accepted by dry run');
  ctx.step(`server-side dry run of ${LINUX_ONLY_FIELDS.length} pods, one Linux-only field each`);
  const verdicts = await Promise.all(
    LINUX_ONLY_FIELDS.map(async (f, i) => {
      const pod = windowsPod(ctx, `linux-field-${i}`);
      f.set(pod);
      const r = await dryRunCreate(ctx, pod);
      return { path: f.path, ...fieldVerdict(f.path, r.created, r.error) };
    }),
  );
  for (const v of verdicts) evidence.push(`${v.path}: ${v.verdict} — ${v.detail}`);
  const accepted = verdicts.filter(v => v.verdict === 'accepted');
  const other = verdicts.filter(v => v.verdict === 'rejected-otherwise');
  const forbidden = verdicts.filter(v => v.verdict === 'forbidden');
  const dropped = verdicts.filter(v => v.verdict === 'dropped');
  if (accepted.length)
    return {
      works: true,
      summary: `${accepted.length} Linux-only field(s) accepted on a Windows pod: ${accepted.map(v => v.path).join(', ')}`,
      evidence,
      control: accepted0,
    };
  if (other.length)
    throw new Error(`${other.length} dry run(s) were rejected without naming the field as Forbidden: ${other.map(v => `${v.path} (${v.detail})`).join('; ')}`);
  return {
    works: false,
    summary: `all ${forbidden.length} Linux-only fields are Forbidden with spec.os.name=windows${dropped.length ? ` (${dropped.length} unknown to this API server: ${dropped.map(v => v.path).join(', ')})` : ''}`,
    evidence,
    control: accepted0,
  };
}

// ---- the others ---------------------------------------------------------------------------

async function runAsUserNameProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture('run-as-default');
  ctx.fixture('run-as-admin');
  ctx.step('waiting for pods run-as-default (image user) and run-as-admin (runAsUserName ContainerAdministrator)');
  const [d, a] = await Promise.all([podSettles(ctx, 'run-as-default', 'ready'), podSettles(ctx, 'run-as-admin', 'ready')]);
  if (!d.ok) throw new Error(`the baseline pod run-as-default did not start: ${d.error.message}`);
  if (!a.ok) return notStarted('run-as-admin', a.error);
  const node = a.pod.spec?.nodeName;
  const [def, adm] = await Promise.all([userOf(ctx, 'run-as-default'), userOf(ctx, 'run-as-admin')]);
  const evidence: EvidenceItem[] = [def.evidence, adm.evidence];
  const works = /^ContainerAdministrator$/i.test(adm.user) && adm.user.toLowerCase() !== def.user.toLowerCase();
  return {
    works,
    summary: works
      ? `runAsUserName switched the user from ${def.user} (image default) to ${adm.user}`
      : `with runAsUserName ContainerAdministrator the container runs as "${adm.user}" (image default "${def.user}")`,
    evidence,
    node,
  };
}

/** The Linux-only fields the linux-fields fixture sets (fixtures/linux-fields.yaml). */
const LINUX_FIXTURE_FIELDS = /runAsUser|runAsGroup|fsGroup|supplementalGroups|seccompProfile|capabilities|seLinuxOptions|allowPrivilegeEscalation/;

/** The fixture's runAsUser (fixtures/linux-fields.yaml). */
const FIXTURE_RUN_AS_USER = '1000';

/**
 * The runtime took the fixture's runAsUser as a Windows user name and refused it ("The user name
 * or password is incorrect. (0x52e)", "User":"1000"), as Docker does: the field was not ignored, it
 * broke the pod. The limitation holds, in its harsher form: a Linux-only field does not work on
 * Windows (it did not take effect as on Linux), and here it even stops the pod.
 */
function runAsUserRefused(user: string | undefined, evidence: EvidenceItem[]): Observation {
  const named = user === FIXTURE_RUN_AS_USER;
  return {
    works: false,
    summary: `runAsUser was not ignored: the runtime took it as the Windows user name "${user ?? '?'}" and refused it, so the pod cannot start`,
    evidence,
    control: control(
      named,
      named
        ? `the refusal names the user ${FIXTURE_RUN_AS_USER}, the fixture's runAsUser`
        : `the refused user ${user ?? '(not named)'} is not the fixture's runAsUser ${FIXTURE_RUN_AS_USER}`,
    ),
  };
}

async function linuxFieldsIgnoredProbe(ctx: CheckContext): Promise<Observation> {
  try {
    ctx.fixture('linux-fields');
  } catch (e) {
    if (!(e instanceof FixtureError)) throw e;
    const refused = fieldRejection(e, LINUX_FIXTURE_FIELDS);
    return {
      works: true,
      summary: `the API server rejected a Windows pod without spec.os carrying Linux-only fields: ${refused.message}`,
      evidence: [refused.message],
      control: refused.control,
    };
  }
  ctx.step('waiting for pod linux-fields (no spec.os, Linux-only fields) to be Ready');
  const r = await podSettlesOrFinal(ctx, 'linux-fields');
  if (!r.ok && 'final' in r) {
    // Known from the first sandbox event: dockershim passes runAsUser to Windows as the user name.
    if (r.final.kind !== 'user-refused')
      throw new MeansError(r.final.kind === 'platform' ? 'image-platform' : 'sandbox', `pod linux-fields did not start: ${r.event}`);
    return runAsUserRefused(r.final.user, [r.event, ...r.events.slice(-3)]);
  }
  if (!r.ok) {
    const refused = userRefusedOf([r.error.message, ...r.error.events].join(' | '));
    if (refused) return runAsUserRefused(refused.user, [r.error.message, ...r.error.events.slice(-3)]);
    const seen = notStarted('linux-fields', r.error);
    const named = refusedFor(r.error, LINUX_FIXTURE_FIELDS);
    return { ...seen, works: true, summary: `the Windows pod with Linux-only fields was refused at run time: ${r.error.reason}`, control: named };
  }
  const node = r.pod.spec?.nodeName;
  const sc = r.pod.spec?.securityContext;
  const csc = r.pod.spec?.containers[0]?.securityContext;
  const kept = [
    sc?.runAsUser !== undefined && 'runAsUser',
    sc?.fsGroup !== undefined && 'fsGroup',
    sc?.seccompProfile && 'seccompProfile',
    csc?.capabilities && 'capabilities',
    csc?.seLinuxOptions && 'seLinuxOptions',
  ].filter(Boolean);
  const who = await userOf(ctx, 'linux-fields');
  const evidence: EvidenceItem[] = [`stored pod keeps ${kept.join(', ') || 'none of the fields'}`, who.evidence];
  // Server Core runs as ContainerAdministrator; runAsUser: 1000 has no Windows meaning.
  const ignored = /^ContainerAdministrator$/i.test(who.user);
  // Control: the container told its user name (a failed exec or an empty answer shows nothing).
  const answered = control(
    who.user !== '',
    who.user ? `echo %username% in the container answered "${who.user}"` : 'echo %username% in the container gave no user name',
  );
  return ignored
    ? {
        works: false,
        summary: `accepted (kept: ${kept.join(', ')}), running, and still ${who.user}: the Linux-only fields had no effect`,
        evidence,
        node,
        control: answered,
      }
    : {
        works: true,
        summary: `the container runs as "${who.user}", not the image's ContainerAdministrator: the Linux-only fields had an effect`,
        evidence,
        node,
        control: answered,
      };
}

async function privilegedProbe(ctx: CheckContext): Promise<Observation> {
  try {
    ctx.fixture('privileged');
  } catch (e) {
    if (!(e instanceof FixtureError)) throw e;
    const refused = fieldRejection(e, /privileged/);
    return {
      works: false,
      summary: `the API server rejected the privileged Windows pod: ${refused.message}`,
      evidence: [refused.message],
      control: refused.control,
    };
  }
  ctx.step('waiting for pod privileged to be Ready');
  const r = await podSettles(ctx, 'privileged', 'ready');
  if (!r.ok)
    return {
      ...notStarted('privileged', r.error),
      works: false,
      summary: `the privileged container was refused: ${r.error.reason}`,
      control: refusedFor(r.error, /privileged/),
    };
  const node = r.pod.spec?.nodeName;
  ctx.step("looking for the host's kubelet service from inside the container");
  const svc = await ctx.probe(ctx.podTransport('privileged', 'windows'), { kind: 'node-command', script: 'Get-Service kubelet' });
  const seesHost = svc.ok && /\bkubelet\b/i.test(svc.evidence.stdout);
  const evidence: EvidenceItem[] = [`stored pod: privileged ${r.pod.spec?.containers[0]?.securityContext?.privileged}`, svc.evidence];
  // Control: PowerShell ran and answered about the service (found it, or said it has none).
  const looked = seesHost || /Cannot find any service with service name 'kubelet'/i.test(svc.evidence.stdout + svc.evidence.stderr);
  const answered = control(
    looked,
    looked
      ? 'Get-Service ran in the container and answered about kubelet'
      : `Get-Service did not answer about kubelet (exit ${svc.evidence.exitCode}): the command may not have run`,
  );
  return seesHost
    ? { works: true, summary: "the privileged container sees the host's kubelet service", evidence, node, control: answered }
    : {
        works: false,
        summary: "privileged was accepted but ignored: the container runs isolated and cannot see the host's services",
        evidence,
        node,
        control: answered,
      };
}

export const features: Feature[] = [
  {
    id: 'sec.run-as-username',
    area: 'security',
    title: 'runAsUserName ContainerUser (default) vs ContainerAdministrator',
    needs: ['windows-node'],
    fixtures: [
      { id: 'run-as-default', template: 'nanoserver-pod', os: 'windows' },
      { id: 'run-as-admin', template: 'run-as-username', os: 'windows', params: { user: 'ContainerAdministrator' } },
    ],
    expect: () =>
      supported(
        'securityContext.windowsOptions.runAsUserName sets the container user (GA since 1.18)',
        sources(cite.v122Intro('security'), cite.e2eTest('security_context.go')),
      ),
    probe: runAsUserNameProbe,
  },
  {
    id: 'sec.linux-fields-rejected',
    area: 'security',
    title: 'With spec.os.name=windows each Linux-only field is Forbidden (server-side dry run)',
    needs: [],
    fixtures: [],
    expect: c =>
      onByDefault(POD_OS_FIELD, c.version)
        ? limited(
            `the API server validates pods with spec.os.name=windows (${describeStage(POD_OS_FIELD, c.version)}): Linux-only fields are Forbidden — enforced`,
            sources(cite.intro(), POD_OS_FIELD.source),
          )
        : notApplicable(`spec.os is not validated by default: ${describeStage(POD_OS_FIELD, c.version)}`, sources(cite.intro(), POD_OS_FIELD.source)),
    probe: linuxFieldsRejectedProbe,
  },
  {
    id: 'sec.linux-fields-ignored',
    area: 'security',
    title: 'Without spec.os, Linux-only fields are accepted and silently ignored',
    needs: ['windows-node'],
    // Pinned to the target node: dockershim turns runAsUser into a user name that breaks the pod
    // (0x52e) where containerd ignores it, so on mixed runtimes the scheduler's pick must not decide.
    fixtures: [{ id: 'linux-fields', template: 'linux-fields', os: 'windows', pin: 'node' }],
    expect: () =>
      limited(
        'without spec.os the API server cannot tell a Windows pod; the Windows kubelet ignores SELinux, seccomp, capabilities, runAsUser...',
        sources(cite.v122Intro('security'), cite.intro()),
      ),
    probe: linuxFieldsIgnoredProbe,
  },
  {
    id: 'sec.privileged',
    area: 'security',
    title: 'Privileged containers',
    needs: ['windows-node'],
    fixtures: [{ id: 'privileged', template: 'privileged', os: 'windows' }],
    expect: () =>
      limited('Windows has no privileged containers; HostProcess containers are the replacement', sources(cite.v122Intro('security'), cite.intro())),
    probe: privilegedProbe,
  },
];
