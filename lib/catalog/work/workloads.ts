// Workloads (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Workloads"), the rows after the IIS pod, Deployment and DaemonSet:
// StatefulSet, multi-container pods, exec/logs, port-forward, build mismatch, env names with ':',
// HPA. The first three rows live in workloads.ts.

import { permissions } from '../../cluster/permission.ts';
import { PassThrough } from 'node:stream';
import { AutoscalingV2Api, PortForward, type V1StatefulSet, type V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { asMeansError } from '../../cluster/meansError.ts';
import { watchUntil, WaitTimeoutError } from '../../cluster/watch.ts';
import { describeDeployment, waitForDeploymentComplete } from '../../cluster/workloadWait.ts';
import { FixtureError } from '../../fixtures/errors.ts';
import { buildNumberOf, LTSC_TAGS } from '../../facts/windows.ts';
import { createPodLike } from '../kit/podCopy.ts';
import { describeSettled, fixturePodReady, podSettles, readyOrEvent } from '../kit/podWaits.ts';
import { k8sAtLeast } from '../../facts/kubernetes.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import { control, fieldRejection, meansOfWorkload, notStarted, probeUntilPass } from '../kit/observe.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { connectWithRetries, isTransportFailure, resilientConfiguration } from '../../cluster/resilience.ts';

const STATEFULSET_REPLICAS = 2;

/** `ipconfig /all` → the DNS suffix search list (first line after the label, then continuation lines). */
export function dnsSuffixes(ipconfig: string): string[] {
  const lines = ipconfig.split(/\r?\n/);
  const out: string[] = [];
  const at = lines.findIndex(l => /DNS Suffix Search List[ .]*:/.test(l));
  if (at < 0) return out;
  const first = lines[at].split(':').slice(1).join(':').trim();
  if (first) out.push(first);
  for (const l of lines.slice(at + 1)) {
    if (!/^\s{20,}\S+\s*$/.test(l)) break;
    out.push(l.trim());
  }
  return out;
}

/** The pod's "<namespace>.svc.<domain>" search suffix; cluster.local when ipconfig does not show one. */
async function serviceSuffix(ctx: CheckContext, pod: string, evidence: EvidenceItem[]): Promise<string> {
  const r = await ctx.probe(ctx.podTransport(pod, 'windows'), { kind: 'ip-config', all: true });
  const suffix = dnsSuffixes(r.evidence.stdout).find(s => s.toLowerCase().startsWith(`${ctx.namespace}.svc.`));
  evidence.push(
    suffix
      ? `search suffix from ipconfig /all in ${pod}: ${suffix}`
      : `no ${ctx.namespace}.svc.* search suffix in ipconfig /all of ${pod}; assuming cluster.local`,
  );
  return suffix ?? `${ctx.namespace}.svc.cluster.local`;
}

async function statefulSetProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'statefulset';
  ctx.fixture(name);
  const evidence: EvidenceItem[] = [];
  ctx.step(`waiting for statefulset ${name} to have ${STATEFULSET_REPLICAS} ready replicas`);
  try {
    const sts = await watchUntil<V1StatefulSet, V1StatefulSet>({
      kube: ctx.kube,
      path: `/apis/apps/v1/namespaces/${ctx.namespace}/statefulsets`,
      fieldSelector: `metadata.name=${name}`,
      list: () => ctx.kube.apps.listNamespacedStatefulSet({ namespace: ctx.namespace, fieldSelector: `metadata.name=${name}` }),
      check: s => ((s.status?.readyReplicas ?? 0) >= STATEFULSET_REPLICAS ? s : undefined),
      what: `statefulset ${ctx.namespace}/${name} to have ${STATEFULSET_REPLICAS} ready replicas`,
      describe: s => (s ? `replicas ${s.status?.replicas ?? 0}, ready ${s.status?.readyReplicas ?? 0}` : 'statefulset not seen'),
      timeoutMs: ctx.options.timeouts.rollout,
      signal: ctx.signal,
    });
    evidence.push(`statefulset ${name}: replicas ${sts.status?.replicas}, ready ${sts.status?.readyReplicas}`);
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    const means = await meansOfWorkload(ctx, `app=${name}`, `statefulset ${name}`);
    if (means) throw means;
    return { works: false, summary: e.message, evidence: [...evidence, e.message] };
    throw e;
  }
  const pods = (await ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector: `app=${name}` })).items;
  const names = pods.map(p => p.metadata?.name ?? '').sort();
  const wanted = Array.from({ length: STATEFULSET_REPLICAS }, (_, i) => `${name}-${i}`);
  evidence.push(`pods: ${pods.map(p => `${p.metadata?.name}@${p.spec?.nodeName}`).join(', ')}`);
  if (wanted.some(w => !names.includes(w))) return { works: false, summary: `pod names ${names.join(', ')} are not the stable ${wanted.join(', ')}`, evidence };
  const node = pods[0]?.spec?.nodeName;
  // Windows treats a dotted name as an FQDN (no search-list devolution): use the full name.
  const suffix = await serviceSuffix(ctx, wanted[0], evidence);
  const failures: string[] = [];
  for (const [from, to] of [
    [wanted[0], wanted[1]],
    [wanted[1], wanted[0]],
  ]) {
    const fqdn = `${to}.${name}.${suffix}`;
    ctx.step(`GET http://${fqdn}:8080/hostname from ${from}`);
    const r = await probeUntilPass(ctx, ctx.podTransport(from, 'windows'), { kind: 'http-get', url: `http://${fqdn}:8080/hostname` });
    evidence.push(r.evidence);
    const answered = r.evidence.stdout.trim();
    if (!r.ok) failures.push(`${from} → ${fqdn}: ${r.detail}`);
    else if (answered !== to) failures.push(`${fqdn} answered as "${answered}", not ${to}`);
  }
  return failures.length
    ? { works: false, summary: failures.join('; '), evidence, node }
    : { works: true, summary: `stable names ${wanted.join(', ')}; each resolves and answers by its per-pod DNS name`, evidence, node };
}

async function multiContainerProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'multi-container';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  ctx.step('GET http://localhost:8080/hostname from container client (server listens in container server)');
  const res = await probeUntilPass(ctx, ctx.podTransport(name, 'windows', 'client'), { kind: 'http-get', url: 'http://localhost:8080/hostname' });
  return {
    works: res.ok,
    summary: res.ok
      ? 'container client reached container server on localhost:8080'
      : `container client could not reach container server on localhost:8080: ${res.detail}`,
    evidence: [res.evidence],
    node,
  };
}

async function execLogsProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'exec-logs';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  const evidence: EvidenceItem[] = [];
  const problems: string[] = [];
  const marker = `wincheck-exec-${ctx.runId}`;
  ctx.step(`exec cmd /c echo ${marker}`);
  const ex = await ctx.probe(ctx.podTransport(name, 'windows'), { kind: 'echo', text: marker });
  evidence.push(ex.evidence);
  if (!ex.ok || ex.evidence.stdout.trim() !== marker)
    problems.push(`exec: expected "${marker}" on stdout, got exit ${ex.evidence.exitCode} and "${ex.evidence.stdout.trim().slice(0, 100)}"`);
  // agnhost pause prints "Paused" when it starts (docs/windows-commands.md §6).
  ctx.step(`reading the logs of ${name}`);
  let log = '';
  try {
    log = await ctx.kube.core.readNamespacedPodLog({ namespace: ctx.namespace, name });
  } catch (e) {
    // A 403 or an unreachable kubelet is the harness's means, not the logs feature: error.
    const failed = asMeansError(e, 'logs', `reading the logs of ${name}`)!;
    if (failed.means !== 'logs') throw failed;
    problems.push(`logs: the API returned an error: ${failed.message}`);
  }
  evidence.push(`logs of ${name}: ${JSON.stringify(log.slice(0, 200))}`);
  if (!problems.some(p => p.startsWith('logs')) && !log.includes('Paused')) problems.push('logs: "Paused" (agnhost pause) is missing from the container log');
  return problems.length
    ? { works: false, summary: problems.join('; '), evidence, node }
    : { works: true, summary: 'exec returned the echoed marker; logs show the container output', evidence, node };
}

/** Sends one HTTP/1.0 request through a port-forward stream and returns what came back. */
async function httpThroughPortForward(ctx: CheckContext, pod: string, port: number, path: string): Promise<{ response: string; error: string }> {
  const output = new PassThrough();
  const errors = new PassThrough();
  const input = new PassThrough();
  let response = '';
  let error = '';
  output.on('data', (c: Buffer) => {
    response += c.toString('utf8');
  });
  errors.on('data', (c: Buffer) => {
    error += c.toString('utf8');
  });
  const pf = new PortForward(ctx.kube.kc, true);
  const socket = (o: Awaited<ReturnType<PortForward['portForward']>>) => (typeof o === 'function' ? o() : o);
  // The connect is retried as exec's is (resets, 429, 5xx on the upgrade): nothing was sent yet.
  const opened = await connectWithRetries(
    `port-forward to ${ctx.namespace}/${pod}:${port}`,
    ctx.kube.policy,
    ctx.signal,
    () => pf.portForward(ctx.namespace, pod, [port], output, errors, input),
    o => socket(o)?.close(),
  );
  const ws = socket(opened);
  try {
    input.write(`GET ${path} HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const deadline = ctx.options.timeouts.exec;
    await new Promise<void>(resolve => {
      const done = () => {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      };
      const timer = setTimeout(done, deadline);
      // The stream has no end marker per request: done once the body announced by
      // Content-Length has arrived, the stream closed, or an error came back.
      const complete = () => {
        const head = response.indexOf('\r\n\r\n');
        const len = /content-length:\s*(\d+)/i.exec(response)?.[1];
        return error.length > 0 || (head >= 0 && len !== undefined && response.length - head - 4 >= Number(len));
      };
      const poll = setInterval(() => {
        if (complete()) done();
      }, 50);
      ws?.on('close', done);
      ctx.signal.addEventListener('abort', done, { once: true });
    });
  } finally {
    ws?.close();
    input.end();
  }
  return { response, error };
}

async function portForwardProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'port-forward';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  ctx.step(`port-forward to ${name}:8080, GET /hostname`);
  let got: { response: string; error: string };
  try {
    got = await httpThroughPortForward(ctx, name, 8080, '/hostname');
  } catch (e) {
    // No answer from the API server even after retries: the path to the cluster failed, not port-forward.
    if (isTransportFailure(e)) throw e;
    const failed = asMeansError(e, 'port-forward', `port-forward to ${name}:8080 failed`)!;
    if (failed.means !== 'port-forward') throw failed;
    return { works: false, summary: failed.message, evidence: [failed.message], node };
  }
  const status = got.response.split('\r\n')[0] ?? '';
  const body = got.response.split('\r\n\r\n').slice(1).join('\r\n\r\n').trim();
  const evidence: EvidenceItem[] = [
    `port-forward ${ctx.namespace}/${name} 8080: status line "${status}", body "${body.slice(0, 100)}"${got.error ? `, error stream "${got.error.trim().slice(0, 200)}"` : ''}`,
  ];
  const works = /^HTTP\/1\.[01] 200/.test(status) && body === name;
  return {
    works,
    summary: works
      ? `GET /hostname through port-forward answered ${name}`
      : `GET /hostname through port-forward did not answer ${name} (status "${status || 'none'}")${got.error ? `: ${got.error.trim().slice(0, 200)}` : ''}`,
    evidence,
    node,
  };
}

/** An LTSC tag for a Windows build other than `build` (older first: the classic mismatch). */
export function otherBuildTag(build: string): { tag: string; build: string } {
  const own = buildNumberOf(build);
  const others = Object.keys(LTSC_TAGS)
    .map(Number)
    .filter(b => b !== own)
    .sort((a, b) => a - b);
  const pick = others.find(b => own !== undefined && b < own) ?? others[0];
  return { tag: LTSC_TAGS[pick], build: `10.0.${pick}` };
}

/** Event and status texts that name a build mismatch (docs/windows-commands.md §7). */
const MISMATCH_TEXT =
  /no match for platform in manifest|no matching manifest|operating system (of the container )?does not match|container operating system does not match|0xc0370101/i;

async function osMismatchProbe(ctx: CheckContext): Promise<Observation> {
  const base = 'os-mismatch';
  ctx.fixture(base);
  const build = ctx.fixture(base).windowsBuild ?? ctx.windowsNode?.windowsBuild;
  if (!build) throw new Error('no target Windows build was discovered');
  const other = otherBuildTag(build);
  const copy = `${base}-${other.tag}`;
  const evidence: EvidenceItem[] = [];
  ctx.step(`creating pod ${copy}: servercore:${other.tag} (build ${other.build}) for a node of build ${build}`);
  await createPodLike(ctx, base, copy, pod => {
    for (const c of pod.spec!.containers) c.image = c.image?.replace(/:[^:/]+$/, `:${other.tag}`);
  });
  ctx.step(`waiting for the matching-build control pod ${base} and for ${copy}`);
  const [matching, mismatch] = await Promise.all([readyOrEvent(ctx, base, ['FailedCreatePodSandBox']), readyOrEvent(ctx, copy, ['FailedCreatePodSandBox'])]);
  evidence.push(describeSettled(base, matching), describeSettled(copy, mismatch));
  if (matching.kind !== 'ready')
    throw new Error(
      `the control pod ${base} (image matching build ${build}) did not start either, so a failure of ${copy} says nothing about the build: ${describeSettled(base, matching)}`,
    );
  const node = matching.pod.spec?.nodeName;
  const started = control(true, `the control pod ${base} (image matching build ${build}) is Ready on ${node}`);
  if (mismatch.kind === 'ready')
    return {
      works: true,
      summary: `servercore:${other.tag} (build ${other.build}) runs on a build ${build} node`,
      evidence,
      node: mismatch.pod.spec?.nodeName ?? node,
      control: started,
    };
  const text =
    mismatch.kind === 'failed' ? [mismatch.error.message, ...mismatch.error.events].join(' | ') : `${mismatch.message} | ${mismatch.events.join(' | ')}`;
  const reason = mismatch.kind === 'failed' ? mismatch.error.reason : mismatch.reason;
  if (MISMATCH_TEXT.test(text) || reason === 'CrashLoopBackOff')
    return {
      works: false,
      summary: `servercore:${other.tag} on a build ${build} node failed as documented: ${reason}`,
      evidence: [...evidence, ...(mismatch.kind === 'failed' ? mismatch.error.events.slice(-3) : mismatch.events.slice(-3))],
      node,
      control: started,
    };
  throw new Error(`pod ${copy} failed, but not with a build mismatch (an unreachable registry or a missing mirror image?): ${text.slice(0, 500)}`);
}

const COLON_ENV = 'Logging:LogLevel:Default';
const UNDERSCORE_ENV = 'Logging__LogLevel__Default';

async function envColonProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'env-colon';
  try {
    ctx.fixture(name);
  } catch (e) {
    // Rejected by the API server with a 422 naming the env name: the documented limitation
    // (before KEP-4369). Any other refusal is the harness's means (fieldRejection throws).
    if (!(e instanceof FixtureError)) throw e;
    const refused = fieldRejection(e, /env\[\d+\]\.name/);
    return { works: false, summary: `the API server rejected env name "${COLON_ENV}"`, evidence: [refused.message], control: refused.control };
  }
  ctx.step(`waiting for pod ${name} to be Ready`);
  const r = await podSettles(ctx, name, 'ready');
  if (!r.ok) return notStarted(name, r.error);
  const node = r.pod.spec?.nodeName;
  // `echo %A:B%` would be read by cmd as a substitution; `set <prefix>` lists names as they are.
  ctx.step('listing Logging* variables with cmd /c set Logging');
  const res = await ctx.probe(ctx.podTransport(name, 'windows'), { kind: 'list-env', prefix: 'Logging' });
  const lines = res.evidence.stdout.split(/\r?\n/).map(l => l.trim());
  const colon = lines.includes(`${COLON_ENV}=Debug`);
  const underscore = lines.includes(`${UNDERSCORE_ENV}=Debug`);
  return {
    // Control: the fixture's other variable (no colon) is listed, so `set` saw the environment.
    control: control(
      underscore,
      underscore ? `${UNDERSCORE_ENV}=Debug is listed by set Logging` : `set Logging did not list ${UNDERSCORE_ENV} either (exit ${res.evidence.exitCode})`,
    ),
    works: colon,
    summary: colon
      ? `the pod was accepted and ${COLON_ENV}=Debug is visible in the container`
      : `the pod was accepted but ${COLON_ENV} is not in the container's environment${underscore ? ` (the seed's ${UNDERSCORE_ENV} is)` : ''}`,
    evidence: [res.evidence],
    node,
  };
}

/** How long metrics-server may take to report a new pod (15-60 s scrapes), capped by the pod-start deadline. */
const HPA_METRICS_WAIT_MS = 3 * 60_000;
/**
 * The HPA controller's sync period (kube-controller-manager --horizontal-pod-autoscaler-sync-period,
 * 15 s by default): its first sync mostly comes before the pods run; the metrics come with the next.
 */
const HPA_SYNC_PERIOD_MS = 15_000;

async function hpaProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'hpa';
  ctx.fixture(name);
  const evidence: EvidenceItem[] = [];
  ctx.step(`waiting for deployment ${name} to be ready`);
  try {
    const d = await waitForDeploymentComplete(ctx.kube, ctx.namespace, name, ctx.options.timeouts.rollout, ctx.signal, {
      unschedulableGraceMs: ctx.options.timeouts.podUnschedulable,
    });
    evidence.push(`deployment ${name}: ${describeDeployment(d)}`);
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    throw new Error(`the deployment the HPA scales did not become ready, so metrics cannot be judged: ${e.message}`, { cause: e });
  }
  const pods = (await ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector: `app=${name}` })).items;
  const autoscaling = new AutoscalingV2Api(resilientConfiguration(ctx.kube.kc, { signal: ctx.kube.signal, policy: ctx.kube.policy }));
  ctx.step(`waiting for HPA ${name} to report CPU metrics`);
  const describe = (h: V2HorizontalPodAutoscaler | undefined) => {
    if (!h) return 'hpa not seen';
    const conds = (h.status?.conditions ?? []).map(c => `${c.type}=${c.status} ${c.reason ?? ''}${c.message ? `: ${c.message}` : ''}`);
    return [`currentMetrics ${JSON.stringify(h.status?.currentMetrics ?? [])}`, ...conds].join('; ');
  };
  try {
    const hpa = await watchUntil<V2HorizontalPodAutoscaler, V2HorizontalPodAutoscaler>({
      kube: ctx.kube,
      path: `/apis/autoscaling/v2/namespaces/${ctx.namespace}/horizontalpodautoscalers`,
      fieldSelector: `metadata.name=${name}`,
      list: () => autoscaling.listNamespacedHorizontalPodAutoscaler({ namespace: ctx.namespace, fieldSelector: `metadata.name=${name}` }),
      check: h => (h.status?.currentMetrics?.some(m => m.resource?.name === 'cpu' && m.resource.current) ? h : undefined),
      what: `HPA ${ctx.namespace}/${name} to report CPU metrics`,
      describe,
      timeoutMs: Math.min(HPA_METRICS_WAIT_MS, ctx.options.timeouts.podStart),
      signal: ctx.signal,
    });
    evidence.push(`hpa ${name}: ${describe(hpa)}`);
    return { works: true, summary: `the HPA reads CPU metrics of the Windows pods`, evidence, node: pods[0]?.spec?.nodeName };
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    return { works: false, summary: e.message, evidence, node: pods[0]?.spec?.nodeName };
  }
}

export const features: Feature[] = [
  {
    id: 'work.statefulset',
    area: 'workloads',
    title: 'StatefulSet on Windows: stable pod names and per-pod DNS',
    needs: ['windows-node'],
    fixtures: [{ id: 'statefulset', template: 'statefulset', os: 'windows' }],
    expect: () =>
      supported(
        'StatefulSets run on Windows nodes with stable names and per-pod DNS records (the v1.9 docs listed them as unsupported)',
        'FEATURES.md; seed 000 (v1.9 limitation, since lifted)',
      ),
    probe: statefulSetProbe,
  },
  {
    id: 'work.multi-container',
    area: 'workloads',
    title: 'Two containers of one Windows pod share the network namespace (localhost)',
    needs: ['windows-node'],
    fixtures: [{ id: 'multi-container', template: 'multi-container', os: 'windows' }],
    expect: () =>
      supported(
        'containers of a pod share one network compartment on Windows Server 1709 and later',
        'seed 000 (shared network namespace needs 1709+); FEATURES.md',
      ),
    probe: multiContainerProbe,
  },
  {
    id: 'work.exec-logs',
    area: 'workloads',
    title: 'exec (cmd /c) and logs work on Windows pods',
    access: permissions('', 'pods/log', ['get'], 'namespace'),
    needs: ['windows-node'],
    subject: ['exec', 'logs'],
    fixtures: [{ id: 'exec-logs', template: 'windows-pause', os: 'windows', params: { selectorKey: 'kubernetes.io/os' } }],
    expect: () => supported('kubectl exec and logs are supported for Windows containers', 'FEATURES.md; upstream test/e2e/windows'),
    probe: execLogsProbe,
  },
  {
    id: 'work.port-forward',
    area: 'workloads',
    title: 'port-forward to a Windows pod',
    access: permissions('', 'pods/portforward', ['get', 'create'], 'namespace'),
    needs: ['windows-node'],
    subject: ['port-forward'],
    fixtures: [{ id: 'port-forward', template: 'windows-netexec', os: 'windows' }],
    expect: () => supported('port-forward works for Windows pods (wincat in the pause image, Kubernetes >= 1.15)', 'FEATURES.md'),
    probe: portForwardProbe,
  },
  {
    id: 'work.os-mismatch',
    area: 'workloads',
    title: 'An image for another Windows build fails under process isolation',
    needs: ['windows-node'],
    fixtures: [{ id: 'os-mismatch', template: 'servercore-pod', os: 'windows' }],
    expect: () =>
      limited(
        'under process isolation the container image build must equal the host build; a mismatch fails to run',
        'seed 000; seed 003; WINDOWS-COMMANDS.md §7',
      ),
    probe: osMismatchProbe,
  },
  {
    id: 'work.env-colon-name',
    area: 'workloads',
    title: "Env var name with ':' (.NET configuration style)",
    needs: ['windows-node'],
    fixtures: [{ id: 'env-colon', template: 'env-colon', os: 'windows' }],
    expect: c =>
      k8sAtLeast(c.version, 1, 32)
        ? supported(
            `Kubernetes ${c.version.gitVersion} >= 1.32: RelaxedEnvironmentVariableValidation is on by default and accepts ':' in env names`,
            'FEATURES.md (KEP-4369: beta 1.32, GA 1.34)',
          )
        : limited(
            `Kubernetes ${c.version.gitVersion} < 1.32: env names with ':' are rejected unless the RelaxedEnvironmentVariableValidation gate is on; the v1.9 docs say use '__'`,
            'seed 000; FEATURES.md (KEP-4369: alpha 1.30, beta 1.32)',
          ),
    probe: envColonProbe,
  },
  {
    id: 'work.hpa',
    area: 'workloads',
    title: 'HorizontalPodAutoscaler on a Windows Deployment reads metrics',
    needs: ['windows-node', 'metrics-server'],
    fixtures: [{ id: 'hpa', template: 'hpa', os: 'windows' }],
    designedWaitMs: () => HPA_SYNC_PERIOD_MS,
    expect: c =>
      c.metricsServer
        ? supported('metrics-server serves metrics.k8s.io, which includes Windows pods', 'FEATURES.md; seed 000 (HPA not validated in v1.9)')
        : notApplicable('metrics.k8s.io is not served (no metrics-server): an HPA has nothing to read', 'FEATURES.md'),
    probe: hpaProbe,
  },
];
