// ipconfig /all in a Windows pod, read once for the addresses, the DNS checks and the StatefulSet's search suffix.

import type { Transport } from '../../probes/types.ts';
import type { CheckContext } from '../types.ts';
import { parseIpconfig } from '../../probes/readers/ipconfig.ts';

/** `ipconfig /all` in a Windows pod: evidence plus the parsed view. */
export async function ipconfigOf(ctx: CheckContext, t: Transport) {
  const r = await ctx.probe(t, { kind: 'ip-config', all: true });
  return { r, cfg: parseIpconfig(r.evidence.stdout) };
}
