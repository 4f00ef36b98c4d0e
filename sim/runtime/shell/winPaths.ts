// Relative paths are resolved against the session's working directory before they
// reach host.fs (which takes paths "as the OS spells them").

export function isAbsoluteWin(p: string): boolean {
  return /^[a-zA-Z]:/.test(p) || p.startsWith('\\') || p.startsWith('/');
}

export function resolveWin(cwd: string, p: string): string {
  if (isAbsoluteWin(p)) return p;
  const base = cwd.endsWith('\\') || cwd.endsWith('/') ? cwd : `${cwd}\\`;
  return p === '.' ? cwd : `${base}${p}`;
}

export function resolvePosix(cwd: string, p: string): string {
  if (p.startsWith('/')) return p;
  if (p === '.') return cwd;
  return cwd.endsWith('/') ? `${cwd}${p}` : `${cwd}/${p}`;
}

export function isNulDevice(p: string): boolean {
  return /^nul(:)?$/i.test(p) || p === '/dev/null' || /^\$null$/i.test(p);
}
