// The Prometheus text exposition format (version 0.0.4) as a kubelet's /metrics endpoints serve
// it: "# HELP"/"# TYPE" comments, then `name{label="value",...} value [timestamp]`, label values
// with \\, \" and \n escaped (https://prometheus.io/docs/instrumenting/exposition_formats/).

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of each metric family by name; lines that are not samples are skipped. */
export function parsePrometheusText(text: string): Map<string, Sample[]> {
  const out = new Map<string, Sample[]>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)(?:\s+-?\d+)?$/.exec(line);
    if (!m) continue;
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== 'NaN') continue;
    const labels: Record<string, string> = {};
    if (m[2]) {
      const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/g;
      for (let l = re.exec(m[2]); l; l = re.exec(m[2])) labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    out.set(m[1], [...(out.get(m[1]) ?? []), { labels, value }]);
  }
  return out;
}
