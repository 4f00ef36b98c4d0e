// Bytes as the short form a summary shows (quantities are parsed by util/quantity.ts).

/** Bytes as a summary shows them: "1.5Gi", "512Mi". */
export function formatBytes(n: number): string {
  if (Math.abs(n) >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2).replace(/\.?0+$/, '')}Gi`;
  return `${Math.round(n / 2 ** 20)}Mi`;
}
