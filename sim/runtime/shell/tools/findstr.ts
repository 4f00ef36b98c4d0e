// findstr (cmd pipelines such as `ipconfig /all | findstr DNS`): literal or simple
// regex match per line, /i, /v, /c:"literal", /r; exit 1 when nothing matched.

import type { ProgramCtx } from '../types.ts';
import { readAll } from '../io.ts';

export async function runFindstr(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  let ignoreCase = false;
  let invert = false;
  let regex = false;
  const patterns: string[] = [];
  const files: string[] = [];
  for (const a of ctx.args) {
    const l = a.toLowerCase();
    if (l.startsWith('/c:')) patterns.push(a.slice(3));
    else if (l === '/i') ignoreCase = true;
    else if (l === '/v') invert = true;
    else if (l === '/r') regex = true;
    else if (l.startsWith('/')) continue;
    else if (patterns.length === 0) patterns.push(...a.split(' '));
    else files.push(a);
  }
  let text: string;
  if (files.length > 0) {
    try {
      text = files.map(f => host.fs.read(f).toString('utf8')).join('\r\n');
    } catch {
      io.stderr.write(`FINDSTR: Cannot open ${files[0]}\r\n`);
      return 1;
    }
  } else text = (await readAll(io.stdin, io.signal)).toString('utf8');
  const tests = patterns.map(p => (regex ? new RegExp(p, ignoreCase ? 'i' : '') : new RegExp(p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), ignoreCase ? 'i' : '')));
  let matched = 0;
  for (const line of text.split(/\r?\n/)) {
    if (line === '') continue;
    const hit = tests.some(t => t.test(line));
    if (hit !== invert) {
      matched++;
      io.stdout.write(`${line}\r\n`);
    }
  }
  return matched > 0 ? 0 : 1;
}
