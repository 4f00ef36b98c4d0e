/** "30m", "90s", "1h30m", "500ms" → ms; undefined if unreadable. A bare number has no unit: unreadable. */
export function parseDuration(s: string): number | undefined {
  const t = s.trim();
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
    matched += m[0].length;
  }
  return matched === t.length && matched > 0 ? total : undefined;
}
