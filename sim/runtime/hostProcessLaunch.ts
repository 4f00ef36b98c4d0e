// How hcsshim starts a HostProcess container's process (internal/jobcontainers/jobcontainer.go
// CreateProcess, https://github.com/microsoft/hcsshim/blob/main/internal/jobcontainers/jobcontainer.go):
// %CONTAINER_SANDBOX_MOUNT_POINT% and $env:CONTAINER_SANDBOX_MOUNT_POINT in the command line and the
// working directory become the container's mount point (replaceWithMountPoint); the working
// directory defaults to the mount point and a relative one is taken under it; the executable
// (getApplicationName) is the command's first word with / read as \ and .exe tried when it has no
// extension: an absolute path as is, a relative path with a directory under the working directory,
// a bare name in the working directory, the mount point (hcsshim puts it first on PATH), then the
// host's PATH. Upstream host_process.go "container command path validation" runs every one of these
// forms. The mount point follows the containerd version: C:\C\<id>\ under containerd 1.6 (hcsshim
// 0.9), C:\hpc\ from 1.7 (versions.ts hostProcessBindMounts). A missing executable fails the start
// as real-outputs/29 shows it: failed to start containerd task "<c>": failed to get application
// name from commandline "<line>": failed to find executable "<path>": unknown.
// breaks: hostprocess-command-paths: the mount point variable is left unexpanded and the working
// directory ignored, so every mount-point and relative form fails to start.

/** Windows path lower-cased, / read as \, doubled separators folded. */
export const normWin = (p: string) =>
  p
    .replace(/\//g, '\\')
    .replace(/\\{2,}/g, '\\')
    .toLowerCase();

const MOUNT_VARS = [/%CONTAINER_SANDBOX_MOUNT_POINT%/gi, /\$env:CONTAINER_SANDBOX_MOUNT_POINT/gi];

/** replaceWithMountPoint: both spellings of the variable become the mount point. */
export function replaceMountPoint(s: string, mount: string): string {
  return MOUNT_VARS.reduce((acc, re) => acc.replace(re, mount), s);
}

/** The host's PATH for HostProcess containers (the logon token's environment block). */
const HOST_PATH = ['C:\\Windows\\System32', 'C:\\Windows', 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0'];

export interface LaunchInput {
  argv: string[];
  workingDir?: string;
  /** The mount point, with its trailing backslash ("C:\\hpc\\"). */
  mount: string;
  /** Whether an absolute Windows path names an executable file (the host's or the container volume's). */
  exists(path: string): boolean;
  /** breaks: hostprocess-command-paths. */
  broken?: boolean;
}

export type Launch = { ok: true; argv: string[]; workingDir: string; executable: string } | { ok: false; message: string };

const goQuote = (s: string) => JSON.stringify(s);
const isAbs = (p: string) => /^[a-zA-Z]:[\\/]/.test(p) || /^[\\/]/.test(p);
const join = (dir: string, p: string) => `${dir.replace(/[\\/]+$/, '')}\\${p}`;

export function resolveLaunch(name: string, input: LaunchInput): Launch {
  const expand = (s: string) => (input.broken ? s : replaceMountPoint(s, input.mount));
  const argv = input.argv.map(expand);
  const wd0 = input.workingDir ? expand(input.workingDir) : '';
  const workingDir = input.broken || !wd0 ? input.mount : isAbs(wd0) ? wd0 : join(input.mount, wd0);
  const program = (argv[0] ?? '').replace(/\//g, '\\');
  const candidates = /\.[^\\.]+$/.test(program) ? [program] : [`${program}.exe`, program];
  const dirs = isAbs(program) ? [''] : program.includes('\\') ? [workingDir] : [workingDir, input.mount, ...HOST_PATH];
  for (const dir of dirs)
    for (const c of candidates) {
      const path = dir ? join(dir, c) : c;
      if (input.exists(path)) return { ok: true, argv, workingDir, executable: path };
    }
  const line = input.argv.join(' ');
  return {
    ok: false,
    message: `failed to start containerd task ${goQuote(name)}: failed to get application name from commandline ${goQuote(line)}: failed to find executable ${goQuote(program)}: unknown`,
  };
}
