// res.allocatable-configz: upstream's "Memory Limits ... Allocatable node memory should be equal to
// a calculated allocatable memory value" (test/e2e/windows/memory_limits.go): the Windows kubelet's
// /configz (through the API server's node proxy) gives systemReserved, kubeReserved and the
// eviction thresholds for memory; capacity minus those must be the node's status.allocatable.

import type { V1Node } from '@kubernetes/client-node';
import { NODE_SUMMARY_ACCESS } from '../access.ts';
import { supported } from '../expect.ts';
import { configzPath, readKubeletConfigz } from '../kit/configz.ts';
import { readyWindowsNodes } from '../kit/nodeTargets.ts';
import { formatBytes } from '../kit/formatBytes.ts';
import { parseQuantity } from '../../../util/quantity.ts';
import { cite, sources } from '../../facts/sources.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

/** The part of a KubeletConfiguration (kubelet.config.k8s.io/v1beta1) the calculation reads. */
export interface KubeletMemoryConfig {
  systemReserved?: Record<string, string>;
  kubeReserved?: Record<string, string>;
  evictionHard?: Record<string, string>;
  evictionSoft?: Record<string, string>;
}

/** An eviction threshold for memory.available in bytes: a quantity, or a percentage of capacity. */
export function memoryThreshold(value: string | undefined, capacity: number): number {
  if (!value) return 0;
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  return pct ? Math.round((Number(pct[1]) / 100) * capacity) : (parseQuantity(value) ?? 0);
}

export interface AllocatableCalculation {
  systemReserved: number;
  kubeReserved: number;
  evictionHard: number;
  evictionSoft: number;
  /** capacity - systemReserved - kubeReserved - evictionHard. */
  allocatable: number;
}

/**
 * What the kubelet's node allocatable is for this configuration: capacity less the reservations
 * and the hard eviction threshold. Upstream's test subtracts evictionSoft too; the kubelet does
 * not (soft thresholds only evict after a grace period), so a soft threshold is reported, not
 * subtracted: with one set, upstream's own test could not pass on any kubelet.
 */
export function calculateAllocatable(capacity: number, config: KubeletMemoryConfig): AllocatableCalculation {
  const systemReserved = parseQuantity(config.systemReserved?.memory) ?? 0;
  const kubeReserved = parseQuantity(config.kubeReserved?.memory) ?? 0;
  const evictionHard = memoryThreshold(config.evictionHard?.['memory.available'], capacity);
  const evictionSoft = memoryThreshold(config.evictionSoft?.['memory.available'], capacity);
  return { systemReserved, kubeReserved, evictionHard, evictionSoft, allocatable: capacity - systemReserved - kubeReserved - evictionHard };
}

async function allocatableProbe(ctx: CheckContext): Promise<Observation> {
  const target = ctx.windowsNode ?? readyWindowsNodes(ctx)[0];
  if (!target) throw new Error('no Ready Windows node');
  const name = target.name;
  ctx.step(`reading node ${name} and its kubelet's /configz`);
  const node: V1Node = await ctx.kube.core.readNode({ name });
  const path = configzPath(name);
  const config = await readKubeletConfigz<KubeletMemoryConfig>(ctx.kube, name);
  const capacity = parseQuantity(node.status?.capacity?.memory);
  const allocatable = parseQuantity(node.status?.allocatable?.memory);
  if (capacity === undefined || allocatable === undefined) throw new Error(`node ${name} reports no memory capacity or allocatable`);
  const c = calculateAllocatable(capacity, config);
  const evidence: EvidenceItem[] = [
    `GET ${path}: systemReserved ${JSON.stringify(config.systemReserved ?? {})}, kubeReserved ${JSON.stringify(config.kubeReserved ?? {})}, evictionHard ${JSON.stringify(config.evictionHard ?? {})}, evictionSoft ${JSON.stringify(config.evictionSoft ?? {})}`,
    `node ${name}: memory capacity ${node.status?.capacity?.memory}, allocatable ${node.status?.allocatable?.memory}`,
    `calculated: ${formatBytes(capacity)} - systemReserved ${formatBytes(c.systemReserved)} - kubeReserved ${formatBytes(c.kubeReserved)} - evictionHard ${formatBytes(c.evictionHard)} = ${formatBytes(c.allocatable)} (${c.allocatable} bytes)${c.evictionSoft ? `; evictionSoft ${formatBytes(c.evictionSoft)} not subtracted (the kubelet does not)` : ''}`,
  ];
  return c.allocatable === allocatable
    ? {
        works: true,
        summary: `node ${name}: allocatable memory ${formatBytes(allocatable)} equals capacity less the /configz reservations and hard eviction threshold`,
        evidence,
        node: name,
      }
    : {
        works: false,
        summary: `node ${name}: allocatable memory ${formatBytes(allocatable)} (${allocatable} bytes) is not the ${formatBytes(c.allocatable)} (${c.allocatable} bytes) its /configz gives (off by ${formatBytes(Math.abs(allocatable - c.allocatable))})`,
        evidence,
        node: name,
      };
}

export const features: Feature[] = [
  {
    id: 'res.allocatable-configz',
    area: 'resources',
    title: "Allocatable memory equals capacity less the kubelet's /configz reservations and hard eviction threshold",
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    perBuild: true,
    fixtures: [],
    expect: () =>
      supported(
        "the Windows kubelet's allocatable memory is capacity - systemReserved - kubeReserved - the hard eviction threshold of its configuration",
        sources(
          cite.e2eTest('memory_limits.go', 'Memory Limits Allocatable node memory should be equal to a calculated allocatable memory value'),
          cite.doc(
            'tasks/administer-cluster/reserve-compute-resources',
            'Node Allocatable: [Allocatable] = [Node Capacity] - [Kube-Reserved] - [System-Reserved] - [Hard-Eviction-Thresholds]',
          ),
        ),
      ),
    probe: allocatableProbe,
  },
];
