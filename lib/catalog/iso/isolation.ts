// Isolation (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Isolation and security", iso.*): process isolation, Hyper-V isolation
// by RuntimeClass and by the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md)'s removed annotation, HostProcess pods.

import { permissions } from '../../cluster/permission.ts';
import type { V1Pod } from '@kubernetes/client-node';
import { HYPERV_HANDLER, hostProcessPossible } from '../../discovery/discover.ts';
import { schedulableWindowsNodes, targetWindowsNode } from '../../discovery/nodes.ts';
import type { ClusterInfo, NodeInfo } from '../../discovery/types.ts';
import { buildNumberOf } from '../../facts/windows.ts';
import type { Transport } from '../../probes/types.ts';
import { k8sAtLeast } from '../../facts/kubernetes.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import { control, notStarted, refusedFor } from '../kit/observe.ts';
import { fixturePodReady, podSettles, podSettlesOrFinal, podSettlesOrMismatch, type FinalOutcome } from '../kit/podWaits.ts';
import { MeansError } from '../../cluster/meansError.ts';
import type { CheckContext, Control, EvidenceItem, Expectation, Feature, Observation } from '../types.ts';
import { HOST_PROCESS, HYPERV_CONTAINERD_MIN, hypervCapable } from '../../facts/kubernetes.ts';
import { nodeTransportOf } from '../kit/nodeTargets.ts';
import { listAll } from '../../cluster/list.ts';
import { cite, sources } from '../../facts/sources.ts';
/** The run's own RuntimeClass for the Hyper-V handler (fixtures/hyperv-runtimeclass.yaml). */
const HYPERV_RC = 'wincheck-hyperv-{{runId}}';

/**
 * Utility VMs on the node, as upstream test/e2e/windows/hyperv.go counts them. Exit 2 when the
 * HostComputeService module is missing (then nothing can be concluded).
 */
export const COUNT_UVMS = [
  "if (-not (Get-Command Get-ComputeProcess -ErrorAction SilentlyContinue)) { Write-Output 'Get-ComputeProcess is not available'; exit 2 }",
  "$vms = @(Get-ComputeProcess | Where-Object { ($_.Type -EQ 'VirtualMachine') -and ($_.Owner -EQ 'containerd-shim-runhcs-v1.exe') })",
  "Write-Output ('utility VMs: ' + $vms.Count)",
  '$vms | Format-Table Id, Owner, Type',
].join('; ');

async function countUtilityVMs(ctx: CheckContext, t: Transport, node: string, evidence: EvidenceItem[]): Promise<number> {
  ctx.step(`on ${node}: Get-ComputeProcess (VirtualMachine, containerd-shim-runhcs-v1.exe)`);
  const r = await ctx.probe(t, { kind: 'node-command', script: COUNT_UVMS });
  evidence.push(r.evidence);
  const m = /utility VMs: (\d+)/.exec(r.evidence.stdout);
  if (r.evidence.exitCode !== 0 || !m)
    throw new Error(
      `could not count utility VMs on ${node} (exit ${r.evidence.exitCode}): ${(r.evidence.stdout + r.evidence.stderr).trim().split(/\r?\n/).slice(0, 2).join(' | ').slice(0, 200) || r.detail}`,
    );
  return Number(m[1]);
}

/** Control for a utility-VM count: the node answered with a count (a count that failed throws above). */
function countedControl(node: string, vms: number, pod: string): Control {
  return control(true, `pod ${pod} is Ready on ${node} and Get-ComputeProcess on the node answered (${vms} utility VM(s))`);
}

/** Running pods on `node` whose RuntimeClass has the Hyper-V handler (all namespaces if allowed). */
/**
 * Hyper-V RuntimeClass pods on the node. `holdingVMs` also counts pods still starting or
 * stopping: their utility VM exists before Running and after deletion starts, so a
 * "one VM more than pods" verdict must count them (else a starting pod looks like a lift).
 */
async function hypervPodsOn(ctx: CheckContext, node: string, which: 'running' | 'holdingVMs' = 'running'): Promise<V1Pod[]> {
  // For the annotation's "one VM more than pods": RuntimeClasses as they are now (another run's
  // wincheck-hyperv-<id>, created after our discovery, has pods and VMs here too). The RuntimeClass
  // probe ("a VM per pod") keeps the discovered ones: counting a pod of another run that is still
  // getting its VM would make ours look VM-less.
  const current =
    which === 'holdingVMs'
      ? await listAll(q => ctx.kube.node.listRuntimeClass(q)).then(
          l => l.items.map(rc => ({ name: rc.metadata?.name ?? '', handler: rc.handler })),
          () => ctx.cluster.runtimeClasses,
        )
      : ctx.cluster.runtimeClasses;
  const names = new Set([...current.filter(rc => rc.handler === HYPERV_HANDLER).map(rc => rc.name), HYPERV_RC.replace('{{runId}}', ctx.runId)]);
  const fieldSelector = `spec.nodeName=${node}`;
  const list = await listAll(q => ctx.kube.core.listPodForAllNamespaces({ fieldSelector, ...q })).catch(() =>
    listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, fieldSelector, ...q })),
  );
  const counted = (p: V1Pod) => (which === 'running' ? p.status?.phase === 'Running' : !['Succeeded', 'Failed'].includes(p.status?.phase ?? ''));
  // Pods of others with the isolation annotation may hold a utility VM too: counted, so only
  // our own annotated pod can account for a VM beyond the count (never another run's).
  const ours = (p: V1Pod) => p.metadata?.namespace === ctx.namespace && p.metadata?.name === 'hyperv-annotation';
  const annotated = (p: V1Pod) => which === 'holdingVMs' && !ours(p) && p.metadata?.annotations?.[ISOLATION_ANNOTATION] === 'hyperv';
  return list.items.filter(p => counted(p) && ((p.spec?.runtimeClassName && names.has(p.spec.runtimeClassName)) || annotated(p)));
}

const ISOLATION_ANNOTATION = 'experimental.windows.kubernetes.io/isolation-type';

/**
 * Judged on the nodes the fixture can land on (schedulable, of the target build): Hyper-V
 * isolation needs containerd >= 1.7 (dockershim and older containerd have no such handler).
 * Mixed nodes: which one the pod gets is not known beforehand, so n/a rather than a guess.
 */
export function hypervExpectation(c: ClusterInfo): Expectation {
  if (!c.hypervRuntimeClass) return notApplicable(`no RuntimeClass has handler ${HYPERV_HANDLER}`, sources(cite.intro(), cite.userGuide('Hyper-V isolation')));
  const target = targetWindowsNode(c.nodes);
  const nodes = schedulableWindowsNodes(c.nodes).filter(n => n.windowsBuild === target?.windowsBuild);
  const capable = nodes.filter(hypervCapable);
  const list = (ns: NodeInfo[]) => ns.map(n => `${n.name} (${n.runtimeName}://${n.runtimeVersion})`).join(', ');
  if (nodes.length && capable.length === nodes.length)
    return supported(
      `RuntimeClass ${c.hypervRuntimeClass} has handler ${HYPERV_HANDLER}; containerd >= ${HYPERV_CONTAINERD_MIN} on ${list(capable)}`,
      sources(cite.intro(), cite.e2eTest('hyperv.go')),
    );
  if (!capable.length)
    return limited(
      `RuntimeClass ${c.hypervRuntimeClass} exists but Hyper-V isolation needs containerd >= ${HYPERV_CONTAINERD_MIN}, and the fixture's nodes run ${list(nodes) || 'none'}`,
      [cite.intro()],
    );
  return notApplicable(
    `could not tell which runtime the Hyper-V pod gets: only some of its nodes run containerd >= ${HYPERV_CONTAINERD_MIN} (${list(capable)}; not ${list(nodes.filter(n => !capable.includes(n)))})`,
    [cite.intro()],
  );
}

async function processProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture('process-isolation');
  ctx.step("waiting for pod process-isolation (servercore of the node's build) to be Ready");
  const r = await podSettlesOrMismatch(ctx, 'process-isolation');
  if (!r.ok) return notStarted('process-isolation', r.error);
  const nodeName = r.pod.spec?.nodeName;
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  ctx.step('cmd /c ver in the container');
  const v = await ctx.probe(ctx.podTransport('process-isolation', 'windows'), { kind: 'os-version' });
  const seen = /\[Version (10\.0\.\d+)(?:\.\d+)?\]/.exec(v.evidence.stdout)?.[1];
  const evidence: EvidenceItem[] = [v.evidence, `node ${nodeName}: build ${node?.windowsBuild ?? 'unknown'} (${node?.kernelVersion ?? ''})`];
  if (!seen) return { works: false, summary: `ver printed no Windows version (${v.detail})`, evidence, node: nodeName };
  const same = node?.windowsBuild !== undefined && buildNumberOf(seen) === buildNumberOf(node.windowsBuild);
  return {
    works: same,
    summary: same ? `the container runs on build ${seen}, the host's build` : `the container reports build ${seen}, the host has ${node?.windowsBuild}`,
    evidence,
    node: nodeName,
  };
}

async function hypervRuntimeClassProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture('hyperv-pod');
  ctx.step('waiting for pod hyperv-pod (RuntimeClass with handler runhcs-wcow-hypervisor) to be Ready');
  const r = await podSettlesOrFinal(ctx, 'hyperv-pod');
  if (!r.ok && 'final' in r) return finalOnHyperv(ctx, r);
  if (!r.ok) return notStarted('hyperv-pod', r.error);
  const node = r.pod.spec!.nodeName!;
  const access = await nodeTransportOf(ctx, node);
  if ('na' in access) return access.na;
  const evidence: EvidenceItem[] = [`pod hyperv-pod on ${node}, runtimeClassName ${r.pod.spec?.runtimeClassName}`];
  const vms = await countUtilityVMs(ctx, access.transport, node, evidence);
  const pods = await hypervPodsOn(ctx, node);
  evidence.push(`Hyper-V RuntimeClass pods running on ${node}: ${pods.map(p => `${p.metadata?.namespace}/${p.metadata?.name}`).join(', ') || 'none'}`);
  const works = vms >= Math.max(pods.length, 1);
  return {
    control: countedControl(node, vms, 'hyperv-pod'),
    works,
    summary: works
      ? `${vms} utility VM(s) on ${node} for ${pods.length} Hyper-V pod(s)`
      : `no utility VM for pod hyperv-pod on ${node} (${vms} VM(s), ${pods.length} Hyper-V pod(s)): it runs process-isolated`,
    evidence,
    node,
  };
}

/**
 * The pod's first sandbox event already tells: containerd has no runtime for the Hyper-V handler
 * on that node ("no runtime for "runhcs-wcow-hypervisor" is configured"), so Hyper-V isolation
 * cannot run there. Any other final failure is not about isolation.
 */
async function finalOnHyperv(ctx: CheckContext, r: FinalOutcome): Promise<Observation> {
  const pod = await ctx.kube.core.readNamespacedPod({ name: 'hyperv-pod', namespace: ctx.namespace }).catch(() => undefined);
  const node = pod?.spec?.nodeName;
  if (r.final.kind !== 'runtime-handler')
    throw new MeansError(r.final.kind === 'platform' ? 'image-platform' : 'sandbox', `pod hyperv-pod did not start: ${r.event}`);
  return {
    works: false,
    summary: `the runtime on ${node ?? 'the node'} has no runtime handler "${r.final.handler}" configured: Hyper-V isolation cannot run there`,
    evidence: [r.event, ...r.events.slice(-3)],
    node,
    control: control(true, `the runtime's refusal names the handler it has no runtime for ("${r.final.handler}"; the RuntimeClass asks for ${HYPERV_HANDLER})`),
  };
}

async function hypervAnnotationProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, 'hyperv-annotation', 'pod hyperv-annotation (the v1.9 isolation-type annotation)');
  if (!r.ok) return r.observation;
  const node = r.pod.spec!.nodeName!;
  const access = await nodeTransportOf(ctx, node);
  if ('na' in access) return access.na;
  const evidence: EvidenceItem[] = [`pod hyperv-annotation on ${node}, annotations ${JSON.stringify(r.pod.metadata?.annotations ?? {})}`];
  // VMs first, pods second: a Hyper-V pod starting in between adds a pod, never a lone VM,
  // so a race can only hide a lift, not invent one.
  const vms = await countUtilityVMs(ctx, access.transport, node, evidence);
  const pods = await hypervPodsOn(ctx, node, 'holdingVMs');
  evidence.push(
    `Hyper-V pods of others on ${node} (RuntimeClass or annotation, not finished): ${pods.map(p => `${p.metadata?.namespace}/${p.metadata?.name}`).join(', ') || 'none'}`,
  );
  // Each RuntimeClass pod accounts for one utility VM; one more is the annotated pod's.
  const works = vms > pods.length;
  return {
    control: countedControl(node, vms, 'hyperv-annotation'),
    works,
    summary: works
      ? `a utility VM beyond the ${pods.length} RuntimeClass pod(s) on ${node}: the annotation was honoured`
      : `no utility VM for the annotated pod on ${node} (${vms} VM(s) for ${pods.length} RuntimeClass pod(s)): the annotation was ignored`,
    evidence,
    node,
  };
}

/** Whether a pod spec asks for HostProcess anywhere (pod level, any container). */
export function asksHostProcess(spec: V1Pod['spec']): boolean {
  return [spec?.securityContext, ...[...(spec?.containers ?? []), ...(spec?.initContainers ?? [])].map(c => c.securityContext)].some(
    sc => sc?.windowsOptions?.hostProcess === true,
  );
}

/**
 * The pod as the API server stored it: an API server with the WindowsHostProcessContainers gate off
 * (alpha in 1.22, off by default) drops windowsOptions.hostProcess on write, silently (its pod
 * strategy's dropDisabledFields), so the pod would run, if at all, as an ordinary container. That
 * is the limitation, observed; undefined when the field was kept.
 */
async function hostProcessDropped(ctx: CheckContext, sent: V1Pod): Promise<Observation | undefined> {
  if (!asksHostProcess(sent.spec)) return undefined;
  const stored = await ctx.kube.core.readNamespacedPod({ namespace: ctx.namespace, name: sent.metadata!.name! });
  if (asksHostProcess(stored.spec)) return undefined;
  const where = (spec: V1Pod['spec']) =>
    JSON.stringify({
      pod: spec?.securityContext?.windowsOptions ?? {},
      containers: (spec?.containers ?? []).map(c => c.securityContext?.windowsOptions ?? {}),
    });
  return {
    works: false,
    summary:
      'the API server dropped securityContext.windowsOptions.hostProcess from the pod (the WindowsHostProcessContainers gate is off): no HostProcess pod can be made',
    evidence: [`windowsOptions sent: ${where(sent.spec)}`, `windowsOptions stored: ${where(stored.spec)}`],
    node: stored.spec?.nodeName,
    // Control: the pod was accepted and read back, and what we sent asked for HostProcess.
    control: control(true, `pod ${sent.metadata!.name} was accepted and read back: hostProcess sent true, absent from the stored pod`),
  };
}

async function hostProcessProbe(ctx: CheckContext): Promise<Observation> {
  const fixture = ctx.fixture('hostprocess');
  const sent = fixture.objects.find((o): o is V1Pod => o.kind === 'Pod');
  ctx.step(`reading back pod ${sent?.metadata?.name ?? 'hostprocess'} as the API server stored it`);
  const dropped = sent ? await hostProcessDropped(ctx, sent) : undefined;
  if (dropped) return dropped;
  ctx.step('waiting for HostProcess pod hostprocess to be Ready');
  const settled = await podSettles(ctx, 'hostprocess', 'ready');
  if (!settled.ok) {
    // Documented to work: a pod that does not start is the regression. Documented as limited: only
    // a refusal naming HostProcess shows the limitation (else no control, so error).
    const named = refusedFor(settled.error, /hostProcess|HostProcess|host process/);
    return { ...notStarted('hostprocess', settled.error), control: named.ok ? named : undefined };
  }
  const r = settled;
  const nodeName = r.pod.spec?.nodeName;
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  const t = ctx.podTransport('hostprocess', 'windows');
  ctx.step('whoami in the HostProcess container');
  const who = await ctx.probe(t, { kind: 'whoami' });
  const user = who.evidence.stdout.trim();
  const system = who.ok && /^nt authority\\system$/i.test(user);
  const podIP = r.pod.status?.podIP;
  const hostIP = r.pod.status?.hostIP;
  const onHostNetwork = podIP !== undefined && (podIP === node?.internalIP || podIP === hostIP);
  // upstream host_process.go "should run as a process on the host/node": `hostname` in the
  // container equals the node's name, compared case-insensitively.
  ctx.step('hostname in the HostProcess container');
  const host = await ctx.probe(t, { kind: 'raw', argv: ['hostname'] });
  const hostname = host.evidence.stdout.trim();
  const sameHost = host.evidence.exitCode === 0 && hostname !== '' && hostNames(nodeName, node?.labels['kubernetes.io/hostname']).has(hostname.toLowerCase());
  const evidence: EvidenceItem[] = [
    who.evidence,
    host.evidence,
    `pod IP ${podIP ?? 'none'}, host IP ${hostIP ?? 'none'}, node ${nodeName} InternalIP ${node?.internalIP ?? 'unknown'}`,
  ];
  const problems = [
    system ? '' : `runs as "${user || who.detail}", not NT AUTHORITY\\SYSTEM`,
    onHostNetwork ? '' : `pod IP ${podIP} is not the node's address`,
    sameHost ? '' : `hostname answered "${hostname || host.detail}", not the node's name ${nodeName}`,
  ].filter(Boolean);
  // Control: whoami answered in the container (an empty answer shows nothing about the user).
  const answered = control(who.ok && user !== '', user ? `whoami in the container answered "${user}"` : `whoami gave no user (${who.detail})`);
  return problems.length
    ? { works: false, summary: `the HostProcess pod ${problems.join('; ')}`, evidence, node: nodeName, control: answered }
    : { works: true, summary: `runs as ${user} with the node's address ${podIP} and hostname ${hostname}`, evidence, node: nodeName, control: answered };
}

/** Names the node's own `hostname` may print: the node name or its hostname label, whole or the first DNS label (lower case). */
export function hostNames(nodeName: string | undefined, label: string | undefined): Set<string> {
  const names = [nodeName, label].filter((n): n is string => !!n).map(n => n.toLowerCase());
  return new Set([...names, ...names.map(n => n.split('.')[0])]);
}

export const features: Feature[] = [
  {
    id: 'iso.process',
    area: 'isolation',
    title: 'Default process isolation; container build equals host build',
    needs: ['windows-node'],
    subject: ['image-platform'],
    fixtures: [{ id: 'process-isolation', template: 'servercore-pod', os: 'windows' }],
    expect: () =>
      supported(
        'containers share the host kernel under process isolation; the image build must equal the host build',
        sources(cite.v19Guide(), cite.v122Intro(), cite.e2e()),
      ),
    probe: processProbe,
  },
  {
    id: 'iso.hyperv-runtimeclass',
    area: 'isolation',
    title: 'Pod with a runhcs-wcow-hypervisor RuntimeClass runs in a utility VM',
    access: permissions('', 'pods', ['list'], 'all-namespaces'),
    needs: ['windows-node', 'hyperv-runtimeclass', 'node-access'],
    fixtures: [{ id: 'hyperv-pod', template: 'hyperv-runtimeclass', os: 'windows', params: { runtimeClass: HYPERV_RC } }],
    expect: hypervExpectation,
    probe: hypervRuntimeClassProbe,
  },
  {
    id: 'iso.hyperv-annotation',
    area: 'isolation',
    title: 'The removed experimental.windows.kubernetes.io/isolation-type: hyperv annotation (v1.9 docs)',
    access: permissions('', 'pods', ['list'], 'all-namespaces'),
    needs: ['windows-node', 'node-access'],
    // Pinned to the target node: on a cluster mixing runtimes, only some nodes give node access,
    // and the verdict must not follow the scheduler's pick.
    fixtures: [{ id: 'hyperv-annotation', template: 'hyperv-annotation', os: 'windows', pin: 'node' }],
    expect: c =>
      limited(
        k8sAtLeast(c.version, 1, 21)
          ? `the annotation was removed in Kubernetes 1.21 (cluster ${c.version.gitVersion}): it is ignored`
          : `the annotation needs the alpha HyperVContainer gate and dockershim (cluster ${c.version.gitVersion})`,
        sources(cite.v19Guide('Hyper-V containers'), cite.intro()),
      ),
    probe: hypervAnnotationProbe,
  },
  {
    id: 'iso.hostprocess',
    area: 'isolation',
    title: 'HostProcess pod runs as SYSTEM on the host network, with the node as its hostname',
    needs: ['windows-node'],
    fixtures: [{ id: 'hostprocess', template: 'hostprocess', os: 'windows', pin: 'node' }],
    expect: c => {
      // The fixture is pinned to the target node: judge that node's runtime.
      const target = targetWindowsNode(c.nodes);
      const hp = hostProcessPossible(c.version, target ? [target] : []);
      return hp.ok
        ? supported(
            `HostProcess containers run from beta (on by default) with containerd >= 1.6: ${hp.reason}`,
            sources(cite.intro(), HOST_PROCESS.source, cite.e2eTest('host_process.go')),
          )
        : limited(
            `HostProcess containers need the feature on (beta 1.23, GA 1.26) and containerd >= 1.6: ${hp.reason}`,
            sources(cite.intro(), HOST_PROCESS.source),
          );
    },
    probe: hostProcessProbe,
  },
];
