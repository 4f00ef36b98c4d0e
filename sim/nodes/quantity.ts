// Kubernetes resource quantities ("500m", "2Gi", "1e3") as plain numbers, and back.

const SUFFIX: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** The value in base units (cores for cpu, bytes for memory); NaN when it is not a quantity. */
export function parseQuantity(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9.]+)(?:[eE]([+-]?[0-9]+))?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(q.trim());
  if (!m) return NaN;
  return Number(m[1]) * 10 ** Number(m[2] ?? 0) * SUFFIX[m[3] ?? ''];
}

/** Memory the way the kubelet reports it: whole kibibytes ("16777216Ki"). */
export function formatMemory(bytes: number): string {
  return `${Math.max(0, Math.floor(bytes / 1024))}Ki`;
}

/** CPU the way the kubelet reports it: whole cores as "4", else millicores ("3900m"). */
export function formatCpu(cores: number): string {
  const milli = Math.max(0, Math.round(cores * 1000));
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
