// A Windows node's side of a failing check, through its transport (HostProcess pod or SSH): the
// kubelet, containerd and kube-proxy logs of the check's time window, and the HNS state.
// Where the logs are: the kubelet's node log query reads C:\var\log\<service> and otherwise the
// service's events with Get-WinEvent (https://kubernetes.io/docs/concepts/cluster-administration/system-logs/#log-query,
// https://github.com/kubernetes/kubernetes/pull/96120); OpenShift's must-gather collects
// kubelet\kubelet.log and kube-proxy\kube-proxy.exe.INFO there
// (https://github.com/openshift/must-gather/blob/master/collection-scripts/gather_windows_node_logs).

import { errorText } from '../../../util/errorText.ts';
import { renderProbe } from '../../probes/render.ts';
import type { Transport } from '../../probes/types.ts';
import type { DiagnosticsFile } from './pods.ts';

export const NODE_SERVICES = ['kubelet', 'containerd', 'kube-proxy'] as const;

/** Lines read from the end of a log file before the window is applied (the byte bound applies after). */
export const NODE_LOG_TAIL_LINES = 20000;
/** Lines kept when no line falls in the window (a node clock or time zone that differs). */
const FALLBACK_LINES = 200;
/** Seconds of log before the check began (what set the failure up) and after it ended. */
const WINDOW_BEFORE_MS = 60_000;
const WINDOW_AFTER_MS = 10_000;

export interface TimeWindow {
  from: number;
  to: number;
}

const psQuote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The newest file of C:\var\log\<service> (…\<service>.log, …\<service>.exe.INFO), else its events. */
export function serviceLogScript(service: string, w: TimeWindow): string {
  const dir = psQuote(`C:\\var\\log\\${service}`);
  const start = new Date(w.from - WINDOW_BEFORE_MS).toISOString();
  const end = new Date(w.to + WINDOW_AFTER_MS).toISOString();
  return [
    `$f = Get-ChildItem -Path ${dir} -File -ErrorAction SilentlyContinue | Sort-Object LastWriteTime | Select-Object -Last 1`,
    `if ($f) { Write-Output "# $($f.FullName)"; Get-Content -Tail ${NODE_LOG_TAIL_LINES} -Path $f.FullName }`,
    `else { Write-Output '# Get-WinEvent -ProviderName ${service}'; Get-WinEvent -FilterHashtable @{ ProviderName = ${psQuote(service)}; StartTime = [datetime]${psQuote(start)}; EndTime = [datetime]${psQuote(end)} } -ErrorAction Stop | Format-List TimeCreated, LevelDisplayName, Message }`,
  ].join('\n');
}

/** What HNS holds: networks and endpoints (Get-HnsNetwork, from hns.psm1), and hnsdiag's list where present. */
export const HNS_SCRIPTS = [
  { label: 'Get-HnsNetwork', script: 'Get-HnsNetwork | Format-List' },
  { label: 'Get-HnsEndpoint', script: 'Get-HnsEndpoint | Format-List' },
  { label: 'hnsdiag list networks', script: 'hnsdiag list networks' },
];

// klog's header (Lmmdd hh:mm:ss.uuuuuu, https://github.com/kubernetes/klog/blob/main/internal/buffer/buffer.go)
// and logrus's time="RFC 3339" (containerd).
const KLOG = /^[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d+)/;
const LOGRUS = /time="([^"]+)"/;

/** When a log line was written, if it says (klog lines carry no year: the window's). */
export function lineTime(line: string, year: number): number | undefined {
  const k = KLOG.exec(line);
  if (k) return Date.UTC(year, Number(k[1]) - 1, Number(k[2]), Number(k[3]), Number(k[4]), Number(k[5]), Number(k[6].slice(0, 3)));
  const l = LOGRUS.exec(line);
  if (l) {
    const t = Date.parse(l[1]);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** The lines of the window (a line without a time goes with the one before it). */
export function withinWindow(text: string, w: TimeWindow): string {
  const lines = text.split(/\r?\n/);
  const year = new Date(w.from).getUTCFullYear();
  const from = w.from - WINDOW_BEFORE_MS;
  const to = w.to + WINDOW_AFTER_MS;
  let keep = true;
  let timed = 0;
  const kept: string[] = [];
  for (const line of lines) {
    const t = lineTime(line, year);
    if (t !== undefined) {
      timed++;
      keep = t >= from && t <= to;
    }
    if (keep || line.startsWith('# ')) kept.push(line);
  }
  if (!timed) return text;
  const body = kept.filter(l => !l.startsWith('# '));
  if (body.some(l => l.trim())) return kept.join('\n');
  return `[wincheck: no line between ${new Date(from).toISOString()} and ${new Date(to).toISOString()} (the node's clock or time zone may differ); its last ${FALLBACK_LINES} lines]\n${lines.slice(-FALLBACK_LINES).join('\n')}`;
}

/** Every node file; a command that fails is said in its file (with its output), never thrown. */
export async function nodeFiles(t: Transport, node: string, w: TimeWindow, signal: AbortSignal, timeoutMs: number): Promise<DiagnosticsFile[]> {
  const run = async (script: string) => {
    try {
      const r = await t.run(renderProbe({ kind: 'node-command', script }, 'windows'), { timeoutMs, signal });
      return { ok: r.exitCode === 0, text: `${r.stdout}${r.stderr ? `\n[stderr]\n${r.stderr}` : ''}`, exit: r.exitCode };
    } catch (e) {
      return { ok: false, text: errorText(e), exit: -1 };
    }
  };
  const files: DiagnosticsFile[] = [];
  for (const service of NODE_SERVICES) {
    const r = await run(serviceLogScript(service, w));
    const head = `[wincheck: ${service} log on ${node} via ${t.description}, window ${new Date(w.from - WINDOW_BEFORE_MS).toISOString()} to ${new Date(w.to + WINDOW_AFTER_MS).toISOString()}]\n`;
    files.push({ path: `node-${node}/${service}.log`, text: head + (r.ok ? withinWindow(r.text, w) : `[wincheck: not collected: exit ${r.exit}]\n${r.text}`) });
  }
  const hns = [];
  for (const { label, script } of HNS_SCRIPTS) {
    const r = await run(script);
    hns.push(`## ${label} (exit ${r.exit})\n${r.text.trimEnd()}\n`);
  }
  files.push({ path: `node-${node}/hns.txt`, text: hns.join('\n') });
  return files;
}
