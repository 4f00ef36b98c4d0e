// The feature × Windows build table of summary.md: on clusters with several Windows builds each
// build-specific feature has one testcase per build, "<id> [<build>]"; this table puts them side
// by side. Empty (no section) on single-build clusters.

import type { CheckResult } from '../catalog/types.ts';

/** "work.iis-pod [ltsc2022]" (lib/run/builds.ts instanceId) → ["work.iis-pod", "ltsc2022"]; a plain id → [id, undefined]. */
export function splitInstanceId(id: string): [string, string | undefined] {
  const m = /^(\S+) \[(.+)\]$/.exec(id);
  return m ? [m[1], m[2]] : [id, undefined];
}

export function renderBuildTable(results: CheckResult[]): string[] {
  const labels: string[] = [];
  const rows = new Map<string, Map<string, CheckResult>>();
  for (const r of results) {
    const [id, label] = splitInstanceId(r.id);
    if (!label) continue;
    if (!labels.includes(label)) labels.push(label);
    if (!rows.has(id)) rows.set(id, new Map());
    rows.get(id)!.set(label, r);
  }
  if (!labels.length) return [];
  const cell = (r: CheckResult | undefined) =>
    !r ? '' : r.outcome === 'regressed' || r.outcome === 'error' ? `**${r.outcome}**` : r.outcome === 'lifted' ? '**lifted** ⚑' : r.outcome;
  return [
    '## Per Windows build',
    '',
    `| Feature | ${labels.join(' | ')} |`,
    `| --- | ${labels.map(() => '---').join(' | ')} |`,
    ...[...rows].map(([id, byLabel]) => `| \`${id}\` | ${labels.map(l => cell(byLabel.get(l))).join(' | ')} |`),
    '',
  ];
}
