// Windows command-line quoting. Windows hands a process one joined command line
// (docs/windows-commands.md §0), so argv from the runtime is joined the way containerd/
// hcsshim do it (Go's syscall.EscapeArg) and split again by each program the way
// the MSVC runtime (CommandLineToArgvW) does.

/** Go syscall.EscapeArg: quote only when the arg is empty or has space, tab or a quote. */
export function escapeWindowsArg(s: string): string {
  if (s === '') return '""';
  if (!/[ \t"]/.test(s)) return s;
  let out = '"';
  let slashes = 0;
  for (const ch of s) {
    if (ch === '\\') {
      slashes++;
      out += ch;
      continue;
    }
    if (ch === '"') {
      out += '\\'.repeat(slashes + 1);
    }
    slashes = 0;
    out += ch;
  }
  out += '\\'.repeat(slashes) + '"';
  return out;
}

export function joinWindowsArgv(argv: string[]): string {
  return argv.map(escapeWindowsArg).join(' ');
}

/** CommandLineToArgvW rules: 2n backslashes + quote -> n and toggle; 2n+1 -> n and a literal quote. */
export function splitWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && (line[i] === ' ' || line[i] === '\t')) i++;
    if (i >= n) break;
    let cur = '';
    let inQuote = false;
    while (i < n) {
      const ch = line[i]!;
      if (!inQuote && (ch === ' ' || ch === '\t')) break;
      if (ch === '\\') {
        let k = i;
        while (k < n && line[k] === '\\') k++;
        const count = k - i;
        if (line[k] === '"') {
          cur += '\\'.repeat(Math.floor(count / 2));
          if (count % 2 === 1) {
            cur += '"';
            i = k + 1;
          } else {
            i = k;
          }
        } else {
          cur += '\\'.repeat(count);
          i = k;
        }
        continue;
      }
      if (ch === '"') {
        if (inQuote && line[i + 1] === '"') {
          cur += '"';
          i += 2;
          continue;
        }
        inQuote = !inQuote;
        i++;
        continue;
      }
      cur += ch;
      i++;
    }
    args.push(cur);
  }
  return args;
}

/** Splits the program token off a command line: quoted or up to the first blank. */
export function splitProgram(line: string): { program: string; rest: string } {
  const s = line.replace(/^[ \t]+/, '');
  let i = 0;
  let program = '';
  let inQuote = false;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === '"') {
      inQuote = !inQuote;
      i++;
      continue;
    }
    if (!inQuote && (ch === ' ' || ch === '\t')) break;
    program += ch;
    i++;
  }
  // The rest keeps its leading blank trimmed by one separator run, as programs see it.
  return { program, rest: s.slice(i).replace(/^[ \t]+/, '') };
}
