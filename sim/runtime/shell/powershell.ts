// powershell / powershell.exe / pwsh: the host's command-line switches, then the
// script runs in the interpreter (ps/). `powershell` is Windows PowerShell 5.1
// (error records in NormalView); `pwsh` is PowerShell 7 (ConciseView). The busybox
// image's powershell.exe is pwsh 6.2.7 (§0), whose errors also use NormalView.

import type { ProgramCtx } from './types.ts';
import { readAll } from './io.ts';
import { parseScript, PSParseError } from './ps/parser.ts';
import { Interp } from './ps/interp.ts';
import type { Edition } from './ps/errors.ts';

const SWITCHES = [
  'command',
  'encodedcommand',
  'file',
  'noprofile',
  'noninteractive',
  'nologo',
  'executionpolicy',
  'inputformat',
  'outputformat',
  'windowstyle',
  'noexit',
  'sta',
  'mta',
  'version',
  'help',
  'ec',
];
const WITH_VALUE = new Set(['executionpolicy', 'inputformat', 'outputformat', 'windowstyle', 'version']);

function matchSwitch(arg: string): string | undefined {
  const a = arg.replace(/^[-/]+/, '').toLowerCase();
  if (!a) return undefined;
  if (a === 'c') return 'command';
  if (a === 'e' || a === 'ec' || a === 'enc') return 'encodedcommand';
  if (a === 'f') return 'file';
  const hits = SWITCHES.filter(s => s.startsWith(a));
  return hits.length >= 1 ? hits[0] : undefined;
}

export async function runPowerShell(ctx: ProgramCtx): Promise<number> {
  const { io } = ctx;
  const edition: Edition = ctx.name === 'pwsh' ? 'core7' : 'desktop';
  const args = ctx.args;
  let script: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const sw = a.startsWith('-') || a.startsWith('/') ? matchSwitch(a) : undefined;
    if (sw === 'command') {
      const rest = args.slice(i + 1);
      script = rest.length === 1 && rest[0] === '-' ? (await readAll(io.stdin, io.signal)).toString('utf8') : rest.join(' ');
      break;
    }
    if (sw === 'encodedcommand') {
      script = Buffer.from(args[i + 1] ?? '', 'base64').toString('utf16le');
      break;
    }
    if (sw === 'file') {
      const path = args[i + 1] ?? '';
      try {
        script = ctx.host.fs
          .read(path)
          .toString('utf8')
          .replace(/^\uFEFF/, '');
      } catch {
        io.stderr.write(
          `The argument '${path}' to the -File parameter does not exist. Provide the path to an existing '.ps1' file as an argument to the -File parameter.\r\n`,
        );
        return 64;
      }
      break;
    }
    if (sw && WITH_VALUE.has(sw)) {
      i++;
      continue;
    }
    if (sw) continue;
    // The first non-switch argument starts the command (Windows PowerShell's default is -Command).
    script = args.slice(i).join(' ');
    break;
  }
  if (script === undefined) script = (await readAll(io.stdin, io.signal)).toString('utf8');
  let stmts;
  try {
    stmts = parseScript(script);
  } catch (e) {
    if (!(e instanceof PSParseError)) throw e;
    const before = script.slice(0, e.pos);
    const line = before.split('\n').length;
    const col = e.pos - (before.lastIndexOf('\n') + 1) + 1;
    const text = script.split('\n')[line - 1] ?? '';
    io.stderr.write(
      `At line:${line} char:${col}\r\n+ ${text}\r\n+ ${' '.repeat(col - 1)}~\r\n${e.message}\r\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\r\n    + FullyQualifiedErrorId : UnexpectedToken\r\n \r\n`,
    );
    return 1;
  }
  const interp = new Interp(ctx.host, io, { ...ctx.env }, script, edition, ctx.spawn);
  return interp.run(stmts);
}
