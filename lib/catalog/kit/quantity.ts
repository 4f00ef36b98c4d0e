// Kubernetes quantities as numbers, and bytes as the short form a summary shows.



const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** A Kubernetes quantity as a plain number ("128Mi" → 134217728, "500m" → 0.5, "2" → 2). */
export function parseQuantity(q: string | number | undefined): number | undefined {
  if (q === undefined) return undefined;
  if (typeof q === 'number') return q;
  const m = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/.exec(q.trim());
  if (!m) return undefined;
  const unit = m[2] ?? '';
  return Number(m[1]) * (BINARY[unit] ?? DECIMAL[unit]);
}

export function formatBytes(n: number): string {
  if (Math.abs(n) >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2).replace(/\.?0+$/, '')}Gi`;
  return `${Math.round(n / 2 ** 20)}Mi`;
}
