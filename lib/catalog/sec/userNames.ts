// Who a Windows container runs as, as upstream's test/e2e/windows/security_context.go checks it:
// a runAsUserName that names no account is refused (pod level: the sandbox; container level: the
// container start), the container's runAsUserName overrides the pod's, and runAsNonRoot refuses
// ContainerAdministrator (any letter case on a patched kubelet) while a non-admin user runs.

import { MeansError } from '../../cluster/meansError.ts';
import { targetWindowsNode } from '../../discovery/nodes.ts';
import { kubeletRefusesAdminAnyCase, RUN_AS_NONROOT_ANY_CASE } from '../../facts/kubernetes.ts';
import { cite, sources } from '../../facts/sources.ts';
import { limited, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { describeSettled, podSettles, podSettlesOrFinal, readyOrEvent, type Settled } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import type { ClusterInfo } from '../../discovery/types.ts';

/** Upstream's spec, by its It text. */
const spec = (it: string) => cite.e2eTest('security_context.go', it);
/** hcsshim's words for a user it cannot log on (upstream's hcsschimError). */
const BAD_USER = /The user name or password is incorrect/i;
/** The kubelet's verifyRunAsNonRoot refusal, in both of its wordings (runAsUserName / runAsUser). */
const NON_ROOT_REFUSAL = /which will be regarded as root identity and will break non-root policy/;

/** What became of a pod whose runAsUserName names no account. */
export interface UserRefusal {
  refused: boolean;
  line: string;
}

/**
 * Refused as upstream accepts it: a FailedCreatePodSandBox event with hcsshim's message (runtimes
 * that pass the user to the sandbox, containerd 1.6+), or the pod Failed with the container
 * terminated StartError / ContainerCannotRun. Anything else that stops the pod is not about the user.
 */
export function userRefusal(name: string, s: Settled): UserRefusal {
  const line = describeSettled(name, s);
  if (s.kind === 'ready') return { refused: false, line };
  if (s.kind === 'event') {
    if (BAD_USER.test(s.message)) return { refused: true, line };
    throw new MeansError('sandbox', `pod ${name} got no sandbox, for a reason other than its user: ${s.message}`);
  }
  const terminated = (s.error.pod.status?.containerStatuses ?? []).map(cs => cs.state?.terminated?.reason ?? '');
  if (s.error.pod.status?.phase === 'Failed' && terminated.some(r => r === 'StartError' || r === 'ContainerCannotRun')) return { refused: true, line };
  return { refused: false, line: `${line} (not a start refusal: ${s.error.reason})` };
}

async function unknownUserNameProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture('run-as-default');
  ctx.fixture('username-pod-level');
  ctx.fixture('username-container-level');
  ctx.step(
    'waiting for run-as-default (image user, control), username-pod-level (pod and container FooLish), username-container-level (pod ContainerUser, container FooLish)',
  );
  const [base, pod, ctr] = await Promise.all([
    podSettles(ctx, 'run-as-default', 'ready'),
    readyOrEvent(ctx, 'username-pod-level', ['FailedCreatePodSandBox']),
    readyOrEvent(ctx, 'username-container-level', ['FailedCreatePodSandBox']),
  ]);
  if (!base.ok) throw new Error(`the control pod run-as-default (image user) did not start: ${base.error.message}`);
  const started = control(true, `pod run-as-default (image user) started on ${base.pod.spec?.nodeName}`);
  const atPod = userRefusal('username-pod-level', pod);
  const atCtr = userRefusal('username-container-level', ctr);
  const evidence: EvidenceItem[] = [atPod.line, atCtr.line];
  const accepted = [atPod.refused ? '' : 'pod level', atCtr.refused ? '' : 'container level'].filter(Boolean);
  return {
    works: accepted.length === 0,
    summary: accepted.length
      ? `runAsUserName FooLish (no such account) was not refused at ${accepted.join(' and ')}`
      : 'runAsUserName FooLish is refused at pod level and at container level',
    evidence,
    node: base.pod.spec?.nodeName,
    control: started,
  };
}

async function userOf(ctx: CheckContext, pod: string, container: string): Promise<{ user: string; evidence: EvidenceItem }> {
  const r = await ctx.probe(ctx.podTransport(pod, 'windows', container), { kind: 'user-name' });
  return { user: r.ok ? r.evidence.stdout.trim() : '', evidence: r.evidence };
}

async function overrideProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture('username-override');
  ctx.step('waiting for pod username-override (pod ContainerAdministrator; container overridden: ContainerUser; container pod-level: unset)');
  const r = await podSettles(ctx, 'username-override', 'ready');
  if (!r.ok) throw new Error(`pod username-override did not start, so no user could be read: ${r.error.message}`);
  const [over, inherit] = await Promise.all([userOf(ctx, 'username-override', 'overridden'), userOf(ctx, 'username-override', 'pod-level')]);
  const answered = control(
    over.user !== '' && inherit.user !== '',
    over.user && inherit.user ? 'echo %username% answered in both containers' : 'echo %username% gave no user name in a container',
  );
  const works = /^ContainerUser$/i.test(over.user) && /^ContainerAdministrator$/i.test(inherit.user);
  return {
    works,
    summary: works
      ? "the container's runAsUserName (ContainerUser) overrides the pod's (ContainerAdministrator), which the other container keeps"
      : `container overridden runs as "${over.user}" (wanted ContainerUser), container pod-level as "${inherit.user}" (wanted the pod's ContainerAdministrator)`,
    evidence: [over.evidence, inherit.evidence],
    node: r.pod.spec?.nodeName,
    control: answered,
  };
}

/** How the kubelet treated a runAsNonRoot pod: refused with its non-root message, or not. */
async function nonRootRefusal(ctx: CheckContext, name: string): Promise<{ refused: boolean; line: string; node?: string }> {
  const r = await podSettles(ctx, name, 'ready');
  if (r.ok) return { refused: false, line: `pod ${name} is Ready on ${r.pod.spec?.nodeName}: runAsNonRoot did not stop it`, node: r.pod.spec?.nodeName };
  const said = [r.error.message, ...r.error.events].find(t => NON_ROOT_REFUSAL.test(t));
  return said
    ? { refused: true, line: `pod ${name}: ${r.error.reason}: ${said.slice(0, 400)}`, node: r.error.pod.spec?.nodeName }
    : {
        refused: false,
        line: `pod ${name} did not start, but not for the non-root policy: ${r.error.message.slice(0, 400)}`,
        node: r.error.pod.spec?.nodeName,
      };
}

async function runAsNonRootProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture('nonroot-admin');
  ctx.fixture('nonroot-user');
  ctx.step('waiting for nonroot-admin (runAsNonRoot, runAsUserName ContainerAdministrator) and nonroot-user (runAsNonRoot, image user ContainerUser)');
  const [admin, settled] = await Promise.all([nonRootRefusal(ctx, 'nonroot-admin'), podSettlesOrFinal(ctx, 'nonroot-user')]);
  // Docker takes runAsUser as the Windows user name and refuses it at the first sandbox event
  // ("The user name or password is incorrect. (0x52e)"): the pod did not run, known at once.
  if (!settled.ok && 'final' in settled && settled.final.kind !== 'user-refused')
    throw new MeansError(settled.final.kind === 'platform' ? 'image-platform' : 'sandbox', `pod nonroot-user did not start: ${settled.event}`);
  const user = settled;
  const userLine = user.ok
    ? `pod nonroot-user is Ready on ${user.pod.spec?.nodeName}`
    : 'final' in user
      ? `pod nonroot-user did not start: the runtime refused runAsUser as the Windows user "${user.final.kind === 'user-refused' ? (user.final.user ?? '?') : '?'}": ${user.event.slice(0, 400)}`
      : `pod nonroot-user did not start: ${user.error.message.slice(0, 400)}`;
  const works = admin.refused && user.ok;
  return {
    works,
    summary: works
      ? "runAsNonRoot refuses ContainerAdministrator with the kubelet's message and lets a non-admin user run"
      : [admin.refused ? '' : 'ContainerAdministrator was not refused under runAsNonRoot', user.ok ? '' : 'the non-admin runAsNonRoot pod did not run']
          .filter(Boolean)
          .join('; '),
    evidence: [admin.line, userLine],
    node: admin.node,
  };
}

async function anyCaseProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture('nonroot-admin');
  ctx.fixture('nonroot-admin-upper');
  ctx.step('waiting for nonroot-admin (ContainerAdministrator, control) and nonroot-admin-upper (CONTAINERADMINISTRATOR) under runAsNonRoot');
  const [exact, upper] = await Promise.all([nonRootRefusal(ctx, 'nonroot-admin'), nonRootRefusal(ctx, 'nonroot-admin-upper')]);
  const refusedExact = control(exact.refused, exact.refused ? "runAsNonRoot refuses ContainerAdministrator with the kubelet's message" : exact.line);
  return {
    works: upper.refused,
    summary: upper.refused
      ? 'CONTAINERADMINISTRATOR is refused under runAsNonRoot like ContainerAdministrator'
      : 'CONTAINERADMINISTRATOR runs despite runAsNonRoot',
    evidence: [exact.line, upper.line],
    node: upper.node,
    control: refusedExact,
  };
}

/** The any-case promise depends on the kubelet of the node the fixtures go to. */
function anyCaseExpectation(c: ClusterInfo) {
  const node = targetWindowsNode(c.nodes);
  const version = node?.kubeletVersion || c.version.gitVersion;
  const fixed = kubeletRefusesAdminAnyCase(version) ?? true;
  const src = sources(
    spec('"should not be able to create pods with containers running as CONTAINERADMINISTRATOR when runAsNonRoot is true"'),
    RUN_AS_NONROOT_ANY_CASE.source,
  );
  return fixed
    ? supported(
        `kubelet ${version}${node ? ` on ${node.name}` : ''} compares the user with ContainerAdministrator in any letter case (fixed in ${RUN_AS_NONROOT_ANY_CASE.fixedIn.join(', ')})`,
        src,
      )
    : limited(
        `kubelet ${version}${node ? ` on ${node.name}` : ''} predates the fix of CVE-2021-25749 (${RUN_AS_NONROOT_ANY_CASE.fixedIn.join(', ')}): it compares the name case-sensitively, so CONTAINERADMINISTRATOR runs`,
        src,
      );
}

export const features: Feature[] = [
  {
    id: 'sec.unknown-username-refused',
    area: 'security',
    title: 'A runAsUserName that names no account is refused, at pod and at container level',
    needs: ['windows-node'],
    fixtures: [
      { id: 'run-as-default', template: 'nanoserver-pod', os: 'windows' },
      { id: 'username-pod-level', template: 'run-as-username-pair', os: 'windows', params: { podUser: 'FooLish', containerUser: 'FooLish' } },
      { id: 'username-container-level', template: 'run-as-username-pair', os: 'windows', params: { podUser: 'ContainerUser', containerUser: 'FooLish' } },
    ],
    expect: () =>
      supported(
        'the runtime cannot log on an unknown user: the sandbox fails with hcsshim\'s "The user name or password is incorrect." or the container ends StartError',
        sources(
          spec('"should not be able to create pods with unknown usernames at Pod level"'),
          spec('"should not be able to create pods with unknown usernames at Container level"'),
        ),
      ),
    probe: unknownUserNameProbe,
  },
  {
    id: 'sec.username-override',
    area: 'security',
    title: "The container's runAsUserName overrides the pod's",
    needs: ['windows-node'],
    fixtures: [{ id: 'username-override', template: 'username-override', os: 'windows' }],
    expect: () =>
      supported(
        "securityContext.windowsOptions.runAsUserName of a container wins over the pod's; a container without one takes the pod's",
        sources(spec('"should override SecurityContext username if set"')),
      ),
    probe: overrideProbe,
  },
  {
    id: 'sec.run-as-nonroot',
    area: 'security',
    title: 'runAsNonRoot refuses ContainerAdministrator and runs a non-admin user',
    needs: ['windows-node'],
    fixtures: [
      // Pinned to the target node: on a cluster mixing runtimes (dockershim refuses runAsUser) the
      // verdict must not depend on where the scheduler puts the pod.
      { id: 'nonroot-admin', template: 'run-as-nonroot', os: 'windows', pin: 'node', params: { user: 'ContainerAdministrator' } },
      { id: 'nonroot-user', template: 'run-as-nonroot-user', os: 'windows', pin: 'node' },
    ],
    expect: () =>
      supported(
        'with runAsNonRoot the kubelet refuses runAsUserName ContainerAdministrator ("container\'s runAsUserName (ContainerAdministrator) which will be regarded as root identity and will break non-root policy"); runAsUser/runAsGroup are ignored and a non-admin user runs',
        sources(
          spec('"should not be able to create pods with containers running as ContainerAdministrator when runAsNonRoot is true"'),
          spec('"should be able to create pod and run containers"'),
          RUN_AS_NONROOT_ANY_CASE.source,
        ),
      ),
    probe: runAsNonRootProbe,
  },
  {
    id: 'sec.run-as-nonroot-any-case',
    area: 'security',
    title: 'runAsNonRoot refuses ContainerAdministrator in any letter case',
    needs: ['windows-node'],
    fixtures: [
      { id: 'nonroot-admin', template: 'run-as-nonroot', os: 'windows', pin: 'node', params: { user: 'ContainerAdministrator' } },
      { id: 'nonroot-admin-upper', template: 'run-as-nonroot', os: 'windows', pin: 'node', params: { user: 'CONTAINERADMINISTRATOR' } },
    ],
    expect: anyCaseExpectation,
    probe: anyCaseProbe,
  },
];
