// Node pools: the groups a large cluster's nodes come in (one instance type, OS image and
// template per pool), read from the label the provider puts on every node of a pool, else
// from the node's name without its ordinal (linux-12 → linux). What a person reads about a
// 500-node cluster is its pools, not 500 names.

import type { NodeInfo } from './types.ts';

/**
 * Labels that name a node's pool, by provider: AKS (and its older spelling), EKS managed node
 * groups, GKE, Karpenter, kops instance groups.
 * https://learn.microsoft.com/en-us/azure/aks/use-labels
 * https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html
 * https://cloud.google.com/kubernetes-engine/docs/concepts/node-pools
 * https://karpenter.sh/docs/reference/well-known-labels/
 * https://kops.sigs.k8s.io/labels/
 */
export const POOL_LABELS = [
  'kubernetes.azure.com/agentpool',
  'agentpool',
  'eks.amazonaws.com/nodegroup',
  'cloud.google.com/gke-nodepool',
  'karpenter.sh/nodepool',
  'kops.k8s.io/instancegroup',
] as const;

type PoolNode = Pick<NodeInfo, 'name' | 'os' | 'windowsBuild'> & { labels?: Record<string, string> };

/** The pool a node belongs to: its provider's pool label, else its name without a trailing ordinal. */
export function poolOf(node: PoolNode): string {
  for (const l of POOL_LABELS) {
    const v = node.labels?.[l];
    if (v) return v;
  }
  return node.name.replace(/-?\d+$/, '') || node.name;
}

export interface NodePool {
  name: string;
  /** "linux" or "windows 10.0.20348": a pool of several OS kinds is listed once per kind. */
  kind: string;
  /** The pool's nodes, in natural order (linux-2 before linux-10). */
  nodes: string[];
}

const naturally = new Intl.Collator('en', { numeric: true }).compare;

/** The nodes grouped by pool and OS kind, largest group first (then by name). */
export function nodePools(nodes: readonly PoolNode[]): NodePool[] {
  const groups = new Map<string, NodePool>();
  for (const n of nodes) {
    const kind = `${n.os}${n.windowsBuild ? ` ${n.windowsBuild}` : ''}`;
    const name = poolOf(n);
    const key = `${name}\u0000${kind}`;
    const g = groups.get(key) ?? { name, kind, nodes: [] };
    g.nodes.push(n.name);
    groups.set(key, g);
  }
  for (const g of groups.values()) g.nodes.sort(naturally);
  return [...groups.values()].sort((a, b) => b.nodes.length - a.nodes.length || naturally(a.name, b.name) || a.kind.localeCompare(b.kind));
}
