// HostProcess init containers (upstream test/e2e/windows/host_process.go "should support init
// containers"): the init container runs on the host too, so what it writes to the node's C:\ is
// there for the pod's container (fixtures/hostprocess-init.yaml). Upstream's pod reads the file and
// exits; ours stays up so the probe reads it by exec and removes it from the node.

import { hostProcessPossible } from '../../discovery/discover.ts';
import { targetWindowsNode } from '../../discovery/nodes.ts';
import { HOST_PROCESS } from '../../facts/kubernetes.ts';
import { cite, sources } from '../../facts/sources.ts';
import { notApplicable, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const FIXTURE = 'hostprocess-init';

/** Reads the init container's file at the host's C:\, then removes it. */
function readScript(runId: string): string {
  const f = `C:\\wincheck-init-${runId}.txt`;
  return [
    "if (-not $env:CONTAINER_SANDBOX_MOUNT_POINT) { Write-Output 'sandbox: unset' } else { Write-Output ('sandbox: ' + $env:CONTAINER_SANDBOX_MOUNT_POINT) }",
    `if (Test-Path -Path '${f}') { Write-Output ('content: ' + (Get-Content -Path '${f}')); Remove-Item -Path '${f}'; Write-Output 'removed: yes' } else { Write-Output 'content: missing' }`,
  ].join('; ');
}

async function initProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, FIXTURE, 'HostProcess pod hostprocess-init (init container configure-node, then container host)');
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  const init = r.pod.status?.initContainerStatuses?.find(s => s.name === 'configure-node');
  const initLine = `init container configure-node: ${init?.state?.terminated ? `terminated ${init.state.terminated.reason ?? ''} exit ${init.state.terminated.exitCode}` : 'no terminated state'}`;
  ctx.step(`reading C:\\wincheck-init-${ctx.runId}.txt (written by the init container) from the pod's container, then removing it`);
  const res = await ctx.probe(ctx.podTransport(FIXTURE, 'windows', 'host'), { kind: 'node-command', script: readScript(ctx.runId) });
  const content = /^content: (.*)$/m.exec(res.evidence.stdout)?.[1]?.trim();
  const sandbox = /^sandbox: (.*)$/m.exec(res.evidence.stdout)?.[1]?.trim();
  const evidence: EvidenceItem[] = [initLine, res.evidence];
  const ctl = control(
    content !== undefined && init?.state?.terminated?.exitCode === 0,
    content !== undefined
      ? `the init container exited ${init?.state?.terminated?.exitCode ?? '(unknown)'} and the pod's container answered`
      : `the pod's container did not answer the check (${res.detail})`,
  );
  const expected = `written by the init container of ${ctx.runId}`;
  if (sandbox === 'unset')
    return { works: false, summary: '$CONTAINER_SANDBOX_MOUNT_POINT is not set: the pod did not run as HostProcess', evidence, node, control: ctl };
  return content === expected
    ? {
        works: true,
        summary: `the HostProcess init container's file at C:\\ of ${node} is there for the pod's container (removed after)`,
        evidence,
        node,
        control: ctl,
      }
    : {
        works: false,
        summary:
          content === 'missing'
            ? `the file the init container wrote at C:\\ is not on ${node} for the pod's container`
            : `the file at C:\\ holds "${content}", not what the init container wrote`,
        evidence,
        node,
        control: ctl,
      };
}

export const features: Feature[] = [
  {
    id: 'iso.hostprocess-init',
    area: 'isolation',
    title: "HostProcess init container configures the node for the pod's container",
    needs: ['windows-node'],
    fixtures: [{ id: FIXTURE, template: 'hostprocess-init', os: 'windows', pin: 'node' }],
    expect: c => {
      const node = targetWindowsNode(c.nodes);
      const hp = hostProcessPossible(c.version, node ? [node] : []);
      return hp.ok
        ? supported(
            `HostProcess pods run their init containers on the host too: ${hp.reason}`,
            sources(cite.e2eTest('host_process.go', 'HostProcess containers should support init containers'), HOST_PROCESS.source),
          )
        : notApplicable(`HostProcess containers cannot run on the target node: ${hp.reason}`, sources(HOST_PROCESS.source));
    },
    probe: initProbe,
  },
];
