// EndpointSlices for Windows pods: the slices of a Service over Windows backends list each pod's
// IP with addressType IPv4 (IPv6 on an IPv6-only cluster), conditions.ready true once the pod is
// Ready, and nodeName the pod's node, which is what kube-proxy on Windows programs HNS from.

import type { V1EndpointSlice, V1Pod } from '@kubernetes/client-node';
import { permissions } from '../../cluster/permission.ts';
import { WaitTimeoutError, watchUntil } from '../../cluster/watch.ts';
import { cite, sources } from '../../facts/sources.ts';
import { supported } from '../expect.ts';
import { readyPods } from '../kit/podWaits.ts';
import { control } from '../kit/observe.ts';
import { FX } from './netexec.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';

const SERVICE_NAME = 'kubernetes.io/service-name';

/** What is wrong with the slices for these pods ([] when each is listed ready on its node). */
export function sliceProblems(slices: V1EndpointSlice[], pods: V1Pod[], family: 'IPv4' | 'IPv6'): string[] {
  const problems: string[] = [];
  for (const pod of pods) {
    const ip = pod.status?.podIP;
    const found = slices.flatMap(s => s.endpoints.filter(e => e.addresses.includes(ip ?? '')).map(e => ({ s, e })))[0];
    const name = pod.metadata?.name;
    if (!found) {
      problems.push(`pod ${name} (${ip}) is in no slice`);
      continue;
    }
    if (found.s.addressType !== family) problems.push(`pod ${name}: addressType ${found.s.addressType}, not ${family}`);
    if (found.e.conditions?.ready !== true) problems.push(`pod ${name}: conditions.ready ${found.e.conditions?.ready}`);
    if (found.e.nodeName !== pod.spec?.nodeName) problems.push(`pod ${name}: nodeName ${found.e.nodeName ?? 'unset'}, not ${pod.spec?.nodeName}`);
  }
  return problems;
}

const describeSlices = (slices: V1EndpointSlice[]) =>
  slices
    .map(
      s =>
        `${s.metadata?.name}: ${s.addressType} ${s.endpoints.map(e => `${e.addresses.join(',')} ready=${e.conditions?.ready} node=${e.nodeName ?? '-'}`).join('; ') || 'no endpoints'}`,
    )
    .join(' | ') || 'no slices';

async function endpointSlicesProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture(FX.svcWin.id);
  const ready = await readyPods(ctx, [FX.winPeer.id, FX.winPeer2.id]);
  if (!ready.ok) throw new Error(`the Windows backends did not start: ${ready.observation.summary}`);
  const pods = Object.values(ready.pods);
  const family = ctx.cluster.ipv6Only ? 'IPv6' : 'IPv4';
  const labelSelector = `${SERVICE_NAME}=${FX.svcWin.id}`;
  const list = () =>
    ctx.kube.objects.list<V1EndpointSlice>('discovery.k8s.io/v1', 'EndpointSlice', ctx.namespace, undefined, undefined, undefined, undefined, labelSelector);
  let seen: V1EndpointSlice[] = [];
  ctx.step(`watching the EndpointSlices of Service ${FX.svcWin.id} until both Windows pods are listed ready on their node`);
  try {
    await watchUntil<V1EndpointSlice, true>({
      kube: ctx.kube,
      path: `/apis/discovery.k8s.io/v1/namespaces/${ctx.namespace}/endpointslices`,
      labelSelector,
      list,
      onList: items => {
        seen = items;
        return sliceProblems(seen, pods, family).length ? undefined : true;
      },
      check: (s, type) => {
        seen = type === 'DELETED' ? seen.filter(x => x.metadata?.name !== s.metadata?.name) : [...seen.filter(x => x.metadata?.name !== s.metadata?.name), s];
        return sliceProblems(seen, pods, family).length ? undefined : true;
      },
      what: `EndpointSlices of ${FX.svcWin.id} to list the Windows pods`,
      describe: () => describeSlices(seen),
      timeoutMs: ctx.options.timeouts.podStart,
      signal: ctx.signal,
    });
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
  }
  const problems = sliceProblems(seen, pods, family);
  const listed = seen.some(s => s.endpoints.length > 0);
  return {
    works: problems.length === 0,
    summary: problems.length ? problems.join('; ') : `both Windows pods are listed ${family}, ready, with their node`,
    evidence: [describeSlices(seen), ...pods.map(p => `pod ${p.metadata?.name} ${p.status?.podIP} on ${p.spec?.nodeName}`)],
    node: pods[0]?.spec?.nodeName,
    control: control(listed, listed ? 'the Service has EndpointSlices with endpoints' : 'the Service has no EndpointSlice with endpoints'),
  };
}

export const features: Feature[] = [
  {
    id: 'net.endpointslices-windows',
    area: 'networking',
    title: 'EndpointSlices list Windows pods: addressType, ready condition, nodeName',
    needs: ['windows-node'],
    access: permissions('discovery.k8s.io', 'endpointslices', ['list', 'watch'], 'namespace'),
    fixtures: [FX.winPeer, FX.winPeer2, FX.svcWin],
    expect: () =>
      supported(
        'the EndpointSlice controller lists a Ready Windows pod behind a Service like any pod: its IP, ready true, its nodeName',
        sources(cite.e2eTest('service.go'), cite.doc('concepts/services-networking/endpoint-slices', 'conditions, topology (nodeName)')),
      ),
    probe: endpointSlicesProbe,
  },
];
