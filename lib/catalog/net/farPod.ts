// The W pod on a second Windows node, created at probe time (its node is known only from discovery).

import { FAR_POD, FX } from './netexec.ts';
import type { CheckContext } from '../types.ts';
import { apiStatusCode } from '../../cluster/apiError.ts';
import { schedulableWindowsNodes } from '../../discovery/nodes.ts';
import type { NodeInfo } from '../../discovery/types.ts';
import { FIXTURE_LABEL } from '../../fixtures/render.ts';
import { createPodLike } from '../kit/podCopy.ts';
/**
 * The W pod on a second Windows node (created here: its node is only known from discovery).
 * A copy of net-win-peer with its own labels, so no Service selects it.
 */
export async function ensureFarPod(ctx: CheckContext, near: string): Promise<{ node: NodeInfo } | { missing: string }> {
  const nearNode = ctx.cluster.nodes.find(n => n.name === near);
  const candidates = schedulableWindowsNodes(ctx.cluster.nodes).filter(n => n.name !== near);
  const far = candidates.find(n => n.windowsBuild === nearNode?.windowsBuild) ?? candidates[0];
  if (!far) return { missing: `no second schedulable Windows node besides ${near}` };
  ctx.step(`creating pod ${FAR_POD} on ${far.name}`);
  try {
    await createPodLike(ctx, FX.winPeer.id, FAR_POD, pod => {
      pod.metadata!.labels = { ...ctx.labels, app: FAR_POD, [FIXTURE_LABEL]: FAR_POD };
      pod.spec!.nodeName = far.name;
    });
  } catch (e) {
    if (apiStatusCode(e) !== 409 && apiStatusCode((e as { cause?: unknown }).cause) !== 409) throw e;
  }
  return { node: far };
}
