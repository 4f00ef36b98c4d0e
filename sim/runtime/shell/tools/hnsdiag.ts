// hnsdiag.exe list networks: the node's HNS networks, one per line (docs/windows-commands.md §5;
// the tool is inbox on Windows Server and used by Microsoft's troubleshooting guide; its exact
// output layout is UNCONFIRMED, modelled as a header and one "id | name | type" row each).

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
  let out = `${'Network Id'.padEnd(38)} | ${'Name'.padEnd(20)} | Type\n`;
  out += `${'-'.repeat(38)}-+-${'-'.repeat(20)}-+-${'-'.repeat(10)}\n`;
  for (const n of nets) out += `${n.id.toUpperCase().padEnd(38)} | ${n.name.padEnd(20)} | ${n.type}\n`;
  w(out);
  return 0;
}
