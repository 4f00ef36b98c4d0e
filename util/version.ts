// Comparison of dotted version strings ("1.7.22", "v2.0.0-rc.1"): generic, no product knowledge.

/** "1.7.22" >= "1.6"? Missing or unreadable parts count as 0. */
export function versionAtLeast(version: string, min: string): boolean {
  const a = version
    .replace(/^v/, '')
    .split(/[.-]/)
    .map(x => parseInt(x, 10));
  const b = min.split('.').map(x => parseInt(x, 10));
  for (let i = 0; i < b.length; i++) {
    const x = Number.isNaN(a[i]) || a[i] === undefined ? 0 : a[i];
    if (x !== b[i]) return x > b[i];
  }
  return true;
}
