// Kubernetes resource quantities ("500m", "2", "128Mi", "1G") as numbers, for
// limits, resourceFieldRef and stats.

const SUFFIX: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** The value of a quantity in base units (cores, bytes); undefined when absent or malformed. */
export function parseQuantity(q: string | number | undefined): number | undefined {
  if (q === undefined || q === null) return undefined;
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(q.trim());
  if (!m) return undefined;
  return Number(m[1]) * SUFFIX[m[2] ?? ''];
}

export const toMillicores = (q: string | number | undefined): number | undefined => {
  const v = parseQuantity(q);
  return v === undefined ? undefined : Math.round(v * 1000);
};
