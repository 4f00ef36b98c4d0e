// PowerShell error records and how the host prints them on stderr. Windows
// PowerShell 5.1 (and pwsh 6, the busybox image's powershell.exe, §0) use the
// "NormalView": "<cmd> : <message>", "At line:L char:C", the source line with a
// ~~~ underline, CategoryInfo and FullyQualifiedErrorId. pwsh 7 uses ConciseView.

export interface ErrorInfo {
  message: string;
  /** The command that failed ("Get-Service"); absent for `throw`. */
  command?: string;
  category: string;
  target?: string;
  targetType?: string;
  /** What the brackets of CategoryInfo show; defaults to the command. */
  activity?: string;
  /** Exception type shown after the brackets, e.g. "ServiceCommandException". */
  reason: string;
  fqid: string;
  /** Extent in the script text. */
  start?: number;
  end?: number;
  /** `throw` records print "<msg>" instead of "<cmd> : <msg>". */
  thrown?: boolean;
}

/** A statement-terminating error: the statement stops, the script goes on ($? = false). */
export class StatementError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}
/** A script-terminating error (`throw`, -ErrorAction Stop): exit code 1 unless caught. */
export class ScriptError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}
export class ExitSignal {
  constructor(readonly code: number) {}
}
export class LoopControl {
  constructor(readonly kind: 'break' | 'continue') {}
}
export class ReturnSignal {
  constructor(readonly values: unknown[]) {}
}

export type Edition = 'desktop' | 'core7';

function lineCol(src: string, pos: number): { line: number; col: number; text: string; lineStart: number } {
  const before = src.slice(0, pos);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = src.indexOf('\n', pos);
  const text = src.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).replace(/\r$/, '');
  return { line, col: pos - lineStart + 1, text, lineStart };
}

export function formatError(info: ErrorInfo, src: string, edition: Edition): string {
  const start = info.start ?? 0;
  const end = Math.max(info.end ?? start, start + 1);
  const { line, col, text, lineStart } = lineCol(src, start);
  const underlineLen = Math.max(1, Math.min(end, lineStart + text.length) - start);
  if (edition === 'core7') {
    if (!info.thrown && info.command) return `${info.command}: ${info.message}\r\n`;
    const n = String(line).padStart(4);
    return `${info.thrown ? 'Exception: ' : ''}\r\nLine |\r\n${n} | ${' '}${text}\r\n     | ${' '.repeat(col)}${'~'.repeat(underlineLen)}\r\n     | ${info.message}\r\n`;
  }
  const head = info.thrown || !info.command ? info.message : `${info.command} : ${info.message}`;
  // Long lines are shown from "... " around the error, as PowerShell's position message does.
  let shown = text;
  let offset = col - 1;
  if (text.length > 90 && offset > 40) {
    const cut = offset - 20;
    shown = `... ${text.slice(cut)}`;
    offset = offset - cut + 4;
  }
  const target = `${info.target ?? ''}:${info.targetType ?? (info.target !== undefined ? 'String' : '')}`;
  return (
    `${head}\r\nAt line:${line} char:${col}\r\n+ ${shown}\r\n+ ${' '.repeat(offset)}${'~'.repeat(underlineLen)}\r\n` +
    `    + CategoryInfo          : ${info.category}: (${target === ':' ? ':' : target}) [${info.activity ?? info.command ?? ''}], ${info.reason}\r\n` +
    `    + FullyQualifiedErrorId : ${info.fqid}\r\n \r\n`
  );
}

/** The record `throw '<msg>'` produces. */
export function thrownInfo(message: string, start: number, end: number): ErrorInfo {
  return { message, category: 'OperationStopped', target: message, reason: 'RuntimeException', fqid: message, start, end, thrown: true };
}

export function notRecognized(name: string, start: number, end: number): ErrorInfo {
  return {
    message: `The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.`,
    command: name,
    activity: '',
    category: 'ObjectNotFound',
    target: name,
    reason: 'CommandNotFoundException',
    fqid: 'CommandNotFoundException',
    start,
    end,
  };
}

/** Thrown by simulated .NET methods; shown as 'Exception calling "X" with "N" argument(s): "..."'. */
export class MethodException extends Error {
  constructor(
    message: string,
    readonly fqid: string,
  ) {
    super(message);
  }
}
