// Resource quantities written the way the kubelet reports them in a node's status (parsed by util/quantity.ts).

/** Memory the way the kubelet reports it: whole kibibytes ("16777216Ki"). */
export function formatMemory(bytes: number): string {
  return `${Math.max(0, Math.floor(bytes / 1024))}Ki`;
}

/** CPU the way the kubelet reports it: whole cores as "4", else millicores ("3900m"). */
export function formatCpu(cores: number): string {
  const milli = Math.max(0, Math.round(cores * 1000));
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
