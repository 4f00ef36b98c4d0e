// hnsdiag.exe list networks: the node's HNS networks (docs/windows-commands.md §5; the tool is
// inbox on Windows Server and used by Microsoft's troubleshooting guide). The layout of its
// network list is UNCONFIRMED: modelled on its published "list adapters" block layout (older
// hnsdiag printed a Name/ID table; the harness reads both).

import type { ProgramCtx } from '../types.ts';

export async function runHnsdiag(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const w = (s: string): boolean => io.stdout.write(s.replace(/\n/g, '\r\n'));
  const [verb, what] = ctx.args.map(a => a.toLowerCase());
  // Only `list networks` is modelled; anything else prints usage and fails.
  if (verb !== 'list' || what !== 'networks') {
    w('Usage: hnsdiag list networks\n');
    return 1;
  }
  const nets = host.node?.hnsNetworks() ?? [];
  // The block layout the updated hnsdiag prints for its lists (its "list adapters" as published
  // in https://github.com/microsoft/SDN/pull/456: "<Kind> : {GUID}", indented "Key : value" lines).
  let out = '';
  for (const n of nets) out += `Network : {${n.id.toUpperCase()}}\n    Name             : ${n.name}\n    Type             : ${n.type}\n\n`;
  w(out);
  return 0;
}
