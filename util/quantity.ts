// Kubernetes resource quantities ("500m", "128Mi", "1e3", "2") as plain numbers in base units
// (cores for cpu, bytes for memory and storage). The grammar of k8s.io/apimachinery
// pkg/api/resource (https://github.com/kubernetes/apimachinery/blob/master/pkg/api/resource/quantity.go):
// a signed decimal number, then one suffix: binary SI (Ki..Ei), decimal SI (n u m k M G T P E),
// or a decimal exponent (e3, E-2). "1E" is an exa; "1E3" a thousand.

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/;

/** The value in base units; undefined when absent or not a quantity. A number is taken as it is. */
export function parseQuantity(q: string | number | undefined | null): number | undefined {
  if (q === undefined || q === null) return undefined;
  if (typeof q === 'number') return q;
  const m = QUANTITY.exec(q.trim());
  if (!m) return undefined;
  const [, number, suffix = '', exponent] = m;
  return exponent !== undefined ? Number(`${number}e${exponent}`) : Number(number) * (BINARY[suffix] ?? DECIMAL[suffix]);
}
