// HostProcess volumes and in-cluster API access (upstream test/e2e/windows/host_process.go "should
// support various volume mount types" and "should support querying api-server using in-cluster
// config"): one HostProcess pod (fixtures/hostprocess-volumes.yaml) with a ConfigMap, a Secret, an
// emptyDir and a projected ServiceAccount token. Where the mounts appear depends on the node's
// containerd: 1.6 links them under $CONTAINER_SANDBOX_MOUNT_POINT only; 1.7 and later bind-mount each
// at its mountPath as well, which is what in-cluster clients need (they read the token at
// /var/run/secrets/kubernetes.io/serviceaccount).

import { hostProcessPossible } from '../../discovery/discover.ts';
import { targetWindowsNode } from '../../discovery/nodes.ts';
import type { ClusterInfo, NodeInfo } from '../../discovery/types.ts';
import { HOST_PROCESS, HOST_PROCESS_BIND_MIN, hostProcessBindMounts } from '../../facts/kubernetes.ts';
import { cite, sources, type Source } from '../../facts/sources.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import { fileMatches } from '../kit/fileCompare.ts';
import { control } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, Control, EvidenceItem, Expectation, Feature, Observation } from '../types.ts';

const FIXTURE = 'hostprocess-volumes';
/** The ConfigMap's text, as upstream's test writes it (fixtures/hostprocess-volumes.yaml). */
const CONFIGMAP_TEXT = 'Lorem ipsum dolor sit amet';
const TOKEN_DIR = 'var\\run\\secrets\\kubernetes.io\\serviceaccount';

/** The fixture's mounts, by mountPath (relative to the drive), and the file inside each that shows it. */
const MOUNTS: { label: string; path: string; file: string; text?: string }[] = [
  { label: 'emptyDir', path: 'etc\\emptydir', file: '' },
  { label: 'ConfigMap', path: 'etc\\configmap', file: 'text.txt', text: CONFIGMAP_TEXT },
  { label: 'Secret', path: 'etc\\secret', file: 'foo.txt' },
  { label: 'downward API', path: 'etc\\downwardapi', file: 'podname', text: FIXTURE },
  { label: 'projected token', path: TOKEN_DIR, file: 'token' },
];

const VOLUMES_SPEC = 'HostProcess containers should support various volume mount types';
const INCLUSTER_SPEC = 'HostProcess containers should support querying api-server using in-cluster config';

/** The node the fixture is pinned to, and whether HostProcess can run there at all. */
function target(c: ClusterInfo): { node?: NodeInfo; possible: { ok: boolean; reason: string } } {
  const node = targetWindowsNode(c.nodes);
  return { node, possible: hostProcessPossible(c.version, node ? [node] : []) };
}

const runtimeOf = (n: NodeInfo) => `${n.runtimeName} ${n.runtimeVersion}`;

function volumesSource(): Source {
  return sources(
    cite.e2eTest('host_process.go', VOLUMES_SPEC),
    cite.hostProcessPod('Volume mounts'),
    cite.kep(1981, `Compatibility: from containerd ${HOST_PROCESS_BIND_MIN} volumes are bind-mounted at their mountPath`),
  );
}

export function volumesExpectation(c: ClusterInfo): Expectation {
  const { node, possible } = target(c);
  if (!node || !possible.ok) return notApplicable(`HostProcess containers cannot run on the target node: ${possible.reason}`, sources(HOST_PROCESS.source));
  return supported(
    hostProcessBindMounts(node)
      ? `${runtimeOf(node)} on ${node.name} (>= ${HOST_PROCESS_BIND_MIN}): volumes appear under $CONTAINER_SANDBOX_MOUNT_POINT and at their mountPath`
      : `${runtimeOf(node)} on ${node.name} (< ${HOST_PROCESS_BIND_MIN}): volumes appear under $CONTAINER_SANDBOX_MOUNT_POINT only`,
    volumesSource(),
  );
}

export function inClusterExpectation(c: ClusterInfo): Expectation {
  const { node, possible } = target(c);
  if (!node || !possible.ok) return notApplicable(`HostProcess containers cannot run on the target node: ${possible.reason}`, sources(HOST_PROCESS.source));
  const source = sources(
    cite.e2eTest('host_process.go', `${INCLUSTER_SPEC} (skipped below containerd ${HOST_PROCESS_BIND_MIN})`),
    cite.hostProcessPod('Volume mounts'),
  );
  return hostProcessBindMounts(node)
    ? supported(`${runtimeOf(node)} on ${node.name} (>= ${HOST_PROCESS_BIND_MIN}) mounts the ServiceAccount token where in-cluster clients read it`, source)
    : limited(
        `${runtimeOf(node)} on ${node.name} (< ${HOST_PROCESS_BIND_MIN}) puts the token under $CONTAINER_SANDBOX_MOUNT_POINT only, not at /var/run/secrets/kubernetes.io/serviceaccount`,
        source,
      );
}

/** PowerShell that prints "<what> <where>: present|missing" per mount, and whether the ConfigMap and downward API texts match. */
function mountScript(bind: boolean): string {
  const lines = [
    "$root = $env:CONTAINER_SANDBOX_MOUNT_POINT; if (-not $root) { Write-Output 'sandbox: unset'; exit 2 }",
    "Write-Output ('sandbox: ' + $root); if (Test-Path -Path $root) { Write-Output 'sandbox-dir: present' } else { Write-Output 'sandbox-dir: missing' }",
  ];
  const bases: [string, string][] = [['sandbox', '(Join-Path $root']];
  if (bind) bases.push(['mountPath', "('C:\\' +"]);
  for (const [where, open] of bases)
    for (const m of MOUNTS) {
      const p = `${open} '${m.path}${m.file ? `\\${m.file}` : ''}')`;
      lines.push(`if (Test-Path -Path ${p}) { Write-Output '${m.label} ${where}: present' } else { Write-Output '${m.label} ${where}: missing' }`);
      if (m.text)
        lines.push(
          `if ((Test-Path -Path ${p}) -and ((Get-Content -Path ${p}) -eq '${m.text}')) { Write-Output '${m.label} text ${where}: matches' } else { Write-Output '${m.label} text ${where}: differs' }`,
        );
    }
  return lines.join('; ');
}

/** "key: value" lines of the script's output. */
function readLines(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of stdout.split(/\r?\n/)) {
    const m = /^(.+?): (.*)$/.exec(l.trim());
    if (m) out.set(m[1], m[2].trim());
  }
  return out;
}

/** The check's answer when $CONTAINER_SANDBOX_MOUNT_POINT is unset (the pod is no HostProcess container), else undefined. */
function notHostProcess(seen: Map<string, string>, evidence: EvidenceItem[], node: string | undefined, ctl: Control): Observation | undefined {
  if (seen.get('sandbox') !== 'unset') return undefined;
  return { works: false, summary: '$CONTAINER_SANDBOX_MOUNT_POINT is not set: the pod did not run as a HostProcess container', evidence, node, control: ctl };
}

async function volumesProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, FIXTURE, 'HostProcess pod hostprocess-volumes (ConfigMap, Secret, emptyDir, downward API, projected token)');
  if (!r.ok) return r.observation;
  const nodeName = r.pod.spec?.nodeName;
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  const bind = node ? hostProcessBindMounts(node) : false;
  const t = ctx.podTransport(FIXTURE, 'windows');
  ctx.step(`listing the mounts under $CONTAINER_SANDBOX_MOUNT_POINT${bind ? ' and at their mountPath' : ''}`);
  const listed = await ctx.probe(t, { kind: 'node-command', script: mountScript(bind) });
  const seen = readLines(listed.evidence.stdout);
  ctx.step('comparing the Secret file under $CONTAINER_SANDBOX_MOUNT_POINT with the value the harness wrote');
  const secret = await fileMatches(ctx, t, '%CONTAINER_SANDBOX_MOUNT_POINT%\\etc\\secret\\foo.txt', ctx.secrets.password);
  const evidence: EvidenceItem[] = [listed.evidence, secret.evidence, `node ${nodeName}: ${node ? runtimeOf(node) : 'unknown runtime'}`];
  const sandboxSeen = seen.get('sandbox-dir') === 'present';
  const ran = seen.has('sandbox');
  const ctl = control(
    ran,
    ran
      ? `the check ran in the container ($CONTAINER_SANDBOX_MOUNT_POINT ${seen.get('sandbox')})`
      : `the check did not run in the container (${listed.detail})`,
  );
  const unset = notHostProcess(seen, evidence, nodeName, ctl);
  if (unset) return unset;
  const problems = [
    ...(sandboxSeen ? [] : [`$CONTAINER_SANDBOX_MOUNT_POINT (${seen.get('sandbox')}) does not exist`]),
    ...(bind ? ['sandbox', 'mountPath'] : ['sandbox']).flatMap(where =>
      MOUNTS.filter(m => seen.get(`${m.label} ${where}`) !== 'present').map(
        m => `${m.label} missing ${where === 'sandbox' ? 'under the sandbox mount point' : `at C:\\${m.path}`}`,
      ),
    ),
    ...(bind ? ['sandbox', 'mountPath'] : ['sandbox']).flatMap(where =>
      MOUNTS.filter(m => m.text && seen.get(`${m.label} ${where}`) === 'present' && seen.get(`${m.label} text ${where}`) !== 'matches').map(
        m => `${m.label} file differs from what was written (${where})`,
      ),
    ),
    ...(seen.get('Secret sandbox') === 'present' && !secret.ok ? [`Secret file: ${secret.detail}`] : []),
  ];
  return problems.length
    ? { works: false, summary: `in the HostProcess container: ${problems.join('; ')}`, evidence, node: nodeName, control: ctl }
    : {
        works: true,
        summary: `ConfigMap, Secret, emptyDir, downward API and projected token are under $CONTAINER_SANDBOX_MOUNT_POINT${bind ? ' and at their mountPath' : ''}, with the written contents`,
        evidence,
        node: nodeName,
        control: ctl,
      };
}

/**
 * client-go's in-cluster config: the token at /var/run/secrets/kubernetes.io/serviceaccount (C:\ on
 * Windows) and KUBERNETES_SERVICE_HOST/PORT. GET /api needs an authenticated user (system:discovery
 * is bound to system:authenticated), so 200 shows the token was accepted; 401 that it was not. The
 * token is read inside the container and never printed. TLS is not verified (-k): the check is the
 * token, and curl.exe's Schannel does not take the ServiceAccount CA file on every build.
 */
const IN_CLUSTER_SCRIPT = [
  `$t = 'C:\\${TOKEN_DIR}\\token'`,
  `$s = Join-Path $env:CONTAINER_SANDBOX_MOUNT_POINT '${TOKEN_DIR}\\token'`,
  "if (-not $env:CONTAINER_SANDBOX_MOUNT_POINT) { Write-Output 'sandbox: unset'; exit 2 }",
  "Write-Output ('sandbox: ' + $env:CONTAINER_SANDBOX_MOUNT_POINT)",
  "if (Test-Path -Path $s) { Write-Output 'sandbox token: present' } else { Write-Output 'sandbox token: missing' }",
  "if (-not (Test-Path -Path $t)) { Write-Output 'token: missing'; exit 3 }",
  "$v = Get-Content -Raw -Path $t; if (-not $v) { Write-Output 'token: empty'; exit 3 }",
  "Write-Output 'token: present'",
  "$u = 'https://' + $env:KUBERNETES_SERVICE_HOST + ':' + $env:KUBERNETES_SERVICE_PORT + '/api'",
  "Write-Output ('url: ' + $u)",
  "$code = curl.exe -sk -o NUL -w '%{http_code}' --max-time 20 -H ('Authorization: Bearer ' + $v.Trim()) $u",
  "Write-Output ('status: ' + $code)",
].join('; ');

async function inClusterProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, FIXTURE, 'HostProcess pod hostprocess-volumes (projected ServiceAccount token)');
  if (!r.ok) return r.observation;
  const nodeName = r.pod.spec?.nodeName;
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  ctx.step('reading the ServiceAccount token where in-cluster clients do and calling the API server with it (GET /api)');
  const res = await ctx.probe(ctx.podTransport(FIXTURE, 'windows'), { kind: 'node-command', script: IN_CLUSTER_SCRIPT });
  const seen = readLines(res.evidence.stdout);
  const evidence: EvidenceItem[] = [res.evidence];
  const status = seen.get('status');
  const inSandbox = seen.get('sandbox token') === 'present';
  const answeredExec = control(
    seen.has('sandbox'),
    seen.has('sandbox') ? 'the check ran in the container' : `the check did not run in the container (${res.detail})`,
  );
  const unset = notHostProcess(seen, evidence, nodeName, answeredExec);
  if (unset) return unset;
  // Below containerd 1.7 the limitation is "under the sandbox mount point only": the control is the
  // token there. From 1.7 a missing token is the finding (the check ran).
  const missingControl =
    node && !hostProcessBindMounts(node)
      ? control(
          inSandbox,
          inSandbox
            ? 'the projected token is mounted under $CONTAINER_SANDBOX_MOUNT_POINT'
            : 'the projected token is not under $CONTAINER_SANDBOX_MOUNT_POINT either',
        )
      : answeredExec;
  if (seen.get('token') !== 'present')
    return {
      works: false,
      summary: `no ServiceAccount token at C:\\${TOKEN_DIR}\\token in the HostProcess container (${seen.get('token') ?? res.detail})${inSandbox ? '; it is under $CONTAINER_SANDBOX_MOUNT_POINT' : ''}`,
      evidence,
      node: nodeName,
      control: missingControl,
    };
  const answered = status !== undefined && /^[1-5]\d\d$/.test(status);
  const ctl = control(
    answered,
    answered
      ? `the API server at ${seen.get('url')} answered HTTP ${status}`
      : `no HTTP answer from ${seen.get('url') ?? 'the API server'} (${status ?? res.detail})`,
  );
  return status === '200'
    ? { works: true, summary: `GET /api with the pod's ServiceAccount token from C:\\${TOKEN_DIR} answered 200`, evidence, node: nodeName, control: ctl }
    : {
        works: false,
        summary: answered
          ? `GET /api with the pod's ServiceAccount token answered HTTP ${status}, not 200`
          : `the API server did not answer (${status ?? res.detail})`,
        evidence,
        node: nodeName,
        control: ctl,
      };
}

const fixture = { id: FIXTURE, template: 'hostprocess-volumes', os: 'windows', pin: 'node' } as const;

export const features: Feature[] = [
  {
    id: 'iso.hostprocess-volumes',
    area: 'isolation',
    title: 'HostProcess container sees ConfigMap, Secret, emptyDir, downward API and token volumes under $CONTAINER_SANDBOX_MOUNT_POINT',
    needs: ['windows-node'],
    fixtures: [fixture],
    expect: volumesExpectation,
    probe: volumesProbe,
  },
  {
    id: 'iso.hostprocess-incluster',
    area: 'isolation',
    title: 'HostProcess container calls the API server with its ServiceAccount token (in-cluster config)',
    needs: ['windows-node'],
    fixtures: [fixture],
    expect: inClusterExpectation,
    probe: inClusterProbe,
  },
];
