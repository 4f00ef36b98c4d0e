// The DirectX device plugin (upstream test/e2e/windows/device_plugin.go "should be able to create a
// functioning device plugin for Windows"): where a Windows node advertises microsoft.com/directx in
// its allocatable (the plugin registered a GPU with its kubelet), a pod limiting one
// (fixtures/directx-pod.yaml) runs, and as upstream checks it: `dxdiag /t` reports "DDI Version: 12"
// and a display device's "Vendor ID: 0x", and the plugin's DIRECTX_GPU_Name is in the container's
// env. dxdiag writes its file a moment after it returns, so the check repeats for up to a minute as
// upstream's LookForStringInPodExec does, until the report is there. Control: the report's "DirectX Version: DirectX 12" (dxdiag
// ran and wrote a report, whatever the device). Upstream deploys the plugin itself; we use the one
// the cluster runs and are n/a, saying why, where no Windows node advertises the resource.

import { cite, sources } from '../../facts/sources.ts';
import type { ClusterInfo, NodeInfo } from '../../discovery/types.ts';
import { notApplicable, supported } from '../expect.ts';
import { control, probeUntilPass } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Expectation, Feature, Observation } from '../types.ts';

const FIXTURE = 'directx-pod';
export const DIRECTX = 'microsoft.com/directx';
const SPEC = 'Device Plugin should be able to create a functioning device plugin for Windows';
const DXDIAG = ['cmd.exe', '/c', 'dxdiag', '/t', 'dxdiag_output.txt', '&', 'type', 'dxdiag_output.txt'];
/** Upstream's strings: the control's, then the device's. */
const DIRECTX_12 = 'DirectX Version: DirectX 12';
const DEVICE = ['DDI Version: 12', 'Vendor ID: 0x'];
const ENV = 'DIRECTX_GPU_Name=';
/** LookForStringInPodExec's time.Minute. */
const DXDIAG_WINDOW_MS = 60_000;

/** Ready, schedulable Windows nodes that advertise at least one microsoft.com/directx. */
export function directxNodes(nodes: NodeInfo[]): NodeInfo[] {
  return nodes.filter(n => n.os === 'windows' && n.ready && n.schedulable && Number(n.allocatable[DIRECTX] ?? 0) >= 1);
}

export function directxExpectation(c: ClusterInfo): Expectation {
  const gpu = directxNodes(c.nodes);
  const src = sources(cite.e2eTest('device_plugin.go', SPEC), cite.doc('concepts/extend-kubernetes/compute-storage-net/device-plugins'));
  return gpu.length
    ? supported(
        `${gpu.map(n => `${n.name} (${DIRECTX} ${n.allocatable[DIRECTX]})`).join(', ')} advertise${gpu.length === 1 ? 's' : ''} the DirectX device plugin's resource: a pod limiting one gets the GPU`,
        src,
      )
    : notApplicable(
        `no Ready Windows node advertises ${DIRECTX} in its allocatable: the DirectX device plugin is not deployed or found no GPU (upstream deploys it on GPU nodes only)`,
        src,
      );
}

/** Which of upstream's device strings the dxdiag report lacks. */
export function missingDeviceLines(report: string): string[] {
  return DEVICE.filter(s => !report.includes(s));
}

async function directxProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, FIXTURE, `pod ${FIXTURE} (limits ${DIRECTX}: 1)`);
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  const t = ctx.podTransport(FIXTURE, 'windows');
  // The report is whole once it has the DirectX version (it is written in one go): judge that one.
  ctx.step(`running ${DXDIAG.join(' ')} until the report is written (up to ${DXDIAG_WINDOW_MS / 1000} s)`);
  const dx = await probeUntilPass(ctx, t, { kind: 'raw', argv: DXDIAG }, DXDIAG_WINDOW_MS, 2_000, x => x.evidence.stdout.includes(DIRECTX_12));
  const env = await ctx.probe(t, { kind: 'raw', argv: ['cmd.exe', '/c', 'set', 'DIRECTX_GPU_Name'] });
  const report = dx.evidence.stdout;
  const missing = [...missingDeviceLines(report), ...(env.evidence.stdout.includes(ENV) ? [] : [`${ENV} in the env`])];
  const ctl = control(
    report.includes(DIRECTX_12),
    report.includes(DIRECTX_12) ? `dxdiag reported "${DIRECTX_12}"` : `dxdiag wrote no report with "${DIRECTX_12}" (${dx.detail})`,
  );
  const evidence: EvidenceItem[] = [`pod ${FIXTURE} Ready on ${node}`, dx.evidence, env.evidence];
  return missing.length
    ? { works: false, summary: `pod ${FIXTURE} on ${node} got no DirectX device: missing ${missing.join(', ')}`, evidence, node, control: ctl }
    : {
        works: true,
        summary: `pod ${FIXTURE} on ${node} sees the GPU: dxdiag shows ${DEVICE.join(' and ')}, and ${ENV.slice(0, -1)} is set`,
        evidence,
        node,
        control: ctl,
      };
}

export const features: Feature[] = [
  {
    id: 'res.directx-device',
    area: 'resources',
    title: 'A pod limiting microsoft.com/directx runs and sees the GPU (DirectX device plugin)',
    needs: ['windows-node'],
    fixtures: [{ id: FIXTURE, template: FIXTURE, os: 'windows' }],
    expect: directxExpectation,
    probe: directxProbe,
  },
];
