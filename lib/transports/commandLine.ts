// argv → the one command line an SSH exec request carries to a Windows node, whose OpenSSH
// default shell is cmd.exe (it runs `cmd.exe /c <line>`). Pure: tested without a node.

const CMD = /^(?:.*[\\/])?cmd(?:\.exe)?$/i;
const POWERSHELL = /^(?:.*[\\/])?(?:powershell|pwsh)(?:\.exe)?$/i;
const CMD_SWITCH = /^\/[cCsSdDqQ]$/;

/** CommandLineToArgvW quoting: what a Windows program's argv parser reads back unchanged. */
export function quoteWindowsArg(arg: string): string {
  if (arg && !/[\s"]/.test(arg)) return arg;
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes++;
      continue;
    }
    if (ch === '"') {
      out += '\\'.repeat(backslashes * 2 + 1) + '"';
      backslashes = 0;
      continue;
    }
    out += '\\'.repeat(backslashes) + ch;
    backslashes = 0;
  }
  return out + '\\'.repeat(backslashes * 2) + '"';
}

/**
 * - `cmd /c X` (and `/S /C`): X itself, since the shell already is cmd.exe.
 * - `powershell ... -Command <script...>`: `powershell ... -Command "<script>"`. A script holding
 *   a double quote would end cmd.exe's quoting (cmd knows no \" escape) and expose | & > to
 *   it, so such scripts go as -EncodedCommand (UTF-16LE base64), which cmd cannot misread.
 * - anything else: each argument quoted as CommandLineToArgvW reads it.
 */
export function windowsCommandLine(command: string[] | string): string {
  if (typeof command === 'string') return command;
  const [exe, ...args] = command;
  if (exe !== undefined && CMD.test(exe)) {
    let i = 0;
    while (i < args.length && CMD_SWITCH.test(args[i])) i++;
    if (i > 0) return args.slice(i).join(' ');
  }
  if (exe !== undefined && POWERSHELL.test(exe)) {
    const at = args.findIndex(a => /^-(?:c|command)$/i.test(a));
    if (at >= 0) {
      const before = args.slice(0, at).map(quoteWindowsArg);
      const script = args.slice(at + 1).join(' ');
      if (!script.includes('"')) return [exe, ...before, '-Command', `"${script}"`].join(' ');
      return [exe, ...before, '-EncodedCommand', Buffer.from(script, 'utf16le').toString('base64')].join(' ');
    }
  }
  return command.map(quoteWindowsArg).join(' ');
}
