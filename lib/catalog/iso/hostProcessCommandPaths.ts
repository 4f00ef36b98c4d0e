// HostProcess command paths (upstream test/e2e/windows/host_process.go "container command path
// validation"): upstream's 33 cases of command, args and workingDir (fixtures/
// hostprocess-command-paths.yaml), each a HostProcess container that must start and exit 0. They name
// the executable and the working directory through %CONTAINER_SANDBOX_MOUNT_POINT% and
// $env:CONTAINER_SANDBOX_MOUNT_POINT (which hcsshim replaces with the container's mount point:
// C:\C\<id>\ under containerd 1.6, C:\hpc\ from 1.7), with \ and /, relative to the working directory
// or bare on PATH, absolute under C:\Windows, directly and through cmd.exe and powershell. A case that
// fails is named with its command, working directory and how its container ended (a StartError
// carries containerd's words). Control: case 0 (cmd.exe /c ver, found on the host's PATH) exited 0,
// so HostProcess containers start on the node at all.

import type { V1Container, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { hostProcessPossible } from '../../discovery/discover.ts';
import { targetWindowsNode } from '../../discovery/nodes.ts';
import { HOST_PROCESS, HOST_PROCESS_BIND_MIN, hostProcessBindMounts } from '../../facts/kubernetes.ts';
import { cite, sources } from '../../facts/sources.ts';
import { waitForPodFinished } from '../../cluster/podWait.ts';
import { notApplicable, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const FIXTURE = 'hostprocess-command-paths';
const PODS = [1, 2, 3].map(i => `${FIXTURE}-${i}`);
const SPEC = 'HostProcess containers container command path validation';
/** Upstream's case count (9 batches of up to 4). */
export const CASES = 33;

/** One case as written and as it ended. */
function describeCase(c: V1Container, s: V1ContainerStatus | undefined): string {
  const t = s?.state?.terminated;
  const how = t
    ? `exit ${t.exitCode}${t.reason ? ` ${t.reason}` : ''}${t.message ? `: ${t.message.slice(0, 300)}` : ''}`
    : `not terminated (${JSON.stringify(s?.state ?? {})})`;
  return `${c.name}: command ${JSON.stringify(c.command ?? [])}${c.args?.length ? ` args ${JSON.stringify(c.args)}` : ''}${c.workingDir ? ` workingDir ${JSON.stringify(c.workingDir)}` : ''}: ${how}`;
}

/** The cases of finished pods: those that did not exit 0 (described), and how many exited 0. */
export function commandPathResults(pods: V1Pod[]): { passed: string[]; failed: string[] } {
  const passed: string[] = [];
  const failed: string[] = [];
  for (const p of pods)
    for (const c of p.spec?.containers ?? []) {
      const s = p.status?.containerStatuses?.find(x => x.name === c.name);
      if (s?.state?.terminated?.exitCode === 0) passed.push(c.name);
      else failed.push(describeCase(c, s));
    }
  return { passed, failed };
}

async function commandPathsProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture(FIXTURE);
  ctx.step(`waiting for ${PODS.join(', ')} (upstream's ${CASES} command path cases, one HostProcess container each) to finish`);
  const pods = await Promise.all(PODS.map(name => waitForPodFinished(ctx.kube, ctx.namespace, name, ctx.options.timeouts.podStart, { signal: ctx.signal })));
  const node = pods[0].spec?.nodeName;
  const { passed, failed } = commandPathResults(pods);
  const ctl = control(
    passed.includes('case-00'),
    passed.includes('case-00') ? 'case-00 (cmd.exe /c ver, on the host PATH) started and exited 0' : 'case-00 (cmd.exe /c ver) did not exit 0',
  );
  const evidence: EvidenceItem[] = [
    `${pods.map(p => `${p.metadata?.name} ${p.status?.phase}`).join(', ')} on ${node}`,
    `${passed.length} of ${passed.length + failed.length} cases exited 0`,
    ...failed,
  ];
  if (passed.length + failed.length !== CASES) throw new Error(`the fixture holds ${passed.length + failed.length} cases, not upstream's ${CASES}`);
  return failed.length
    ? {
        works: false,
        summary: `${failed.length} of upstream's ${CASES} HostProcess command path cases did not start and exit 0: ${failed.map(f => f.replace(/:.*/, '')).join(', ')}`,
        evidence,
        node,
        control: ctl,
      }
    : {
        works: true,
        summary: `all ${CASES} of upstream's HostProcess command path cases (mount-point variable, relative, absolute, through cmd and powershell) started and exited 0`,
        evidence,
        node,
        control: ctl,
      };
}

export const features: Feature[] = [
  {
    id: 'iso.hostprocess-command-paths',
    area: 'isolation',
    title: 'HostProcess commands and working directories given as mount-point, relative and absolute paths start (upstream path validation)',
    needs: ['windows-node'],
    fixtures: [{ id: FIXTURE, template: FIXTURE, os: 'windows', pin: 'node' }],
    expect: c => {
      const node = targetWindowsNode(c.nodes);
      const hp = hostProcessPossible(c.version, node ? [node] : []);
      if (!node || !hp.ok) return notApplicable(`HostProcess containers cannot run on the target node: ${hp.reason}`, sources(HOST_PROCESS.source));
      const mount = hostProcessBindMounts(node)
        ? `C:\\hpc\\ (containerd >= ${HOST_PROCESS_BIND_MIN})`
        : `C:\\C\\<container id>\\ (containerd < ${HOST_PROCESS_BIND_MIN})`;
      return supported(
        `${node.runtimeName} ${node.runtimeVersion} on ${node.name} resolves HostProcess commands and working directories given through $env:CONTAINER_SANDBOX_MOUNT_POINT (${mount}), relative to the working directory, on PATH or absolute`,
        sources(cite.e2eTest('host_process.go', SPEC), cite.hostProcessPod(), HOST_PROCESS.source),
      );
    },
    probe: commandPathsProbe,
  },
];
