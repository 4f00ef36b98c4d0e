// Which Windows nodes a node-level check visits, and the transport to each (or why there is none).

import picomatch from 'picomatch';
import type { CheckContext, Observation } from '../types.ts';
import type { NodeInfo } from '../../discovery/types.ts';
import type { Transport } from '../../probes/types.ts';
import { notVisitedBecause } from '../../discovery/nodes.ts';

export type NodeTransportOutcome = { transport: Transport } | { na: Observation };

/** The node's transport, or an n/a observation saying there is none. */
export async function nodeTransportOf(ctx: CheckContext, nodeName: string | undefined): Promise<NodeTransportOutcome> {
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  if (!node) throw new Error(`node ${nodeName ?? '(none)'} is not in the discovered cluster`);
  const barred = notVisitedBecause(node, ctx.options);
  if (barred)
    return {
      na: {
        works: false,
        summary: `node ${node.name} not visited`,
        evidence: [],
        node: node.name,
        notApplicable: `node ${node.name} is not visited: ${barred}`,
      },
    };
  const transport = await ctx.nodeTransport(node);
  if (transport) return { transport };
  return {
    na: {
      works: false,
      summary: 'no node access',
      evidence: [],
      node: node.name,
      notApplicable: `no HostProcess pod or SSH session on node ${node.name} is possible (${ctx.cluster.nodeAccess.hostProcessReason || 'HostProcess not possible'}; ${ctx.cluster.nodeAccess.sshReason || 'SSH not configured'})`,
    },
  };
}

/**
 * The Windows nodes a node-level check visits: every Ready one that is not cordoned (release
 * qualification needs all; --include-cordoned adds the cordoned ones), or those --nodes selects.
 */
export function readyWindowsNodes(ctx: CheckContext): NodeInfo[] {
  return selectedNodes(
    ctx,
    ctx.cluster.nodes.filter(n => n.os === 'windows' && !notVisitedBecause(n, ctx.options)),
  );
}

/** The Windows nodes (of the --nodes selection) a node-level check leaves out, with why: "win-1 (NotReady)". */
export function notVisitedWindowsNodes(ctx: CheckContext): string[] {
  const globs = ctx.options.nodes ?? [];
  const selected = globs.length ? picomatch(globs) : () => true;
  return ctx.cluster.nodes.flatMap(n => {
    const why = n.os === 'windows' && selected(n.name) ? notVisitedBecause(n, ctx.options) : undefined;
    return why ? [`${n.name} (${why})`] : [];
  });
}

/**
 * The nodes --nodes selects (globs over names), all of them without a selection. A selection
 * that matches none of them is an error naming it, never a silent pass over nothing.
 */
export function selectedNodes(ctx: CheckContext, nodes: NodeInfo[]): NodeInfo[] {
  const globs = ctx.options.nodes ?? [];
  if (!globs.length) return nodes;
  const selected = picomatch(globs);
  const chosen = nodes.filter(n => selected(n.name));
  if (!chosen.length) throw new Error(`--nodes ${globs.join(', ')} matches none of the Windows nodes ${nodes.map(n => n.name).join(', ') || '(none)'}`);
  return chosen;
}
