// A container's main process: the argv the runtime starts (image ENTRYPOINT/CMD
// merged with the pod's command/args, $(VAR) expanded), and the few image
// entrypoints the runtime plays itself because no shell runs them: IIS's
// ServiceMonitor, the pause binary, nginx, redis, and a Windows base image's default
// shell. Everything else (agnhost, cmd, powershell, sh, ping -t...) goes to the
// interpreter, which calls back host.startServer for agnhost's servers.

import type { V1Container } from '@kubernetes/client-node';
import type { ImageManifest } from './images.ts';
import { expandVars } from './env.ts';

/** ENTRYPOINT/CMD rules: command replaces the entrypoint (and drops CMD); args replace CMD. */
export function containerArgv(m: ImageManifest, c: V1Container, env: Record<string, string>): string[] {
  const entry = c.command?.length ? c.command : (m.entrypoint ?? []);
  const cmd = c.args?.length ? c.args : c.command?.length ? [] : (m.cmd ?? []);
  return [...entry, ...cmd].map(a => expandVars(a, env));
}

export type Builtin = { kind: 'iis' } | { kind: 'pause'; text?: string } | { kind: 'nginx' } | { kind: 'redis' } | { kind: 'nfs' } | { kind: 'idle-shell' };

const base = (p: string | undefined) => (p ?? '').toLowerCase().replace(/^.*[\\/]/, '');

/** Which image entrypoints the runtime runs itself; undefined = the interpreter runs argv. */
export function builtinFor(argv: string[], m: ImageManifest, c: V1Container): Builtin | undefined {
  const b0 = base(argv[0]);
  if (b0 === 'servicemonitor.exe' || b0 === 'servicemonitor') return { kind: 'iis' };
  if (b0 === 'pause' || b0 === 'pause.exe') return { kind: 'pause' };
  if (b0 === 'nonroot' || b0 === 'nonroot.exe') return { kind: 'pause' };
  if (b0 === 'redis-server.exe' || b0 === 'redis-server') return { kind: 'redis' };
  if (b0 === 'run_nfs.sh') return { kind: 'nfs' };
  if (m.daemons?.includes(b0)) return { kind: 'pause' };
  if (argv.some(a => base(a) === 'nginx') && (b0 === 'docker-entrypoint.sh' || b0 === 'nginx')) return { kind: 'nginx' };
  // No command and no args: the image's default process. Windows base images default
  // to cmd.exe (pwsh for the PowerShell image), kept waiting so the seeds' pods run
  // (see images.ts defaultRunsForever).
  if (!c.command?.length && !c.args?.length && m.defaultRunsForever) return { kind: 'idle-shell' };
  return undefined;
}

/** Go's log prefix, "2006/01/02 15:04:05 " (agnhost and other Go servers write to stderr with it). */
export function goLog(msg: string): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${msg}\n`;
}

/** `--flag=value` / `--flag value` options of a Go command line. */
export function goFlags(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(args[i]);
    if (!m) continue;
    if (m[2] !== undefined) out[m[1]] = m[2];
    else if (i + 1 < args.length && !args[i + 1].startsWith('-')) out[m[1]] = args[++i];
    else out[m[1]] = 'true';
  }
  return out;
}
