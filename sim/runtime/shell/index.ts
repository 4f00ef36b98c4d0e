// The simulated command interpreter: runs argv as a container runtime would exec
// it in a Windows or Linux container (or a HostProcess container / SSH session).
//
// Conventions for the runtime that builds ShellHosts:
// - hasBinary(name) lists the image's executables as lower-case basenames, with
//   ".exe" on Windows: "cmd.exe", "powershell.exe", "pwsh.exe", "curl.exe",
//   "nslookup.exe", "ping.exe", "ipconfig.exe", "hostname.exe", "whoami.exe",
//   "sc.exe", "findstr.exe", "agnhost.exe", "sh.exe"/"wget.exe" (busybox in
//   C:\bin); on Linux "sh", "nc", "wget", "curl", "nslookup", "ping", "agnhost".
//   The pseudo-binary "busybox-hostname" marks the e2e busybox image whose
//   hostname.exe prints without a newline (docs/windows-commands.md §0).
// - sh built-ins (echo, cat, env, ls, test, sleep, mkdir, rm, id, whoami,
//   hostname, grep, ip...) need only "sh"; /etc/resolv.conf is generated from
//   host.dns when the file system has none. The same applets exec'd directly
//   (argv ["ls", ...]) run when the image lists them (sh.ts BUSYBOX_BUILTINS).
// - cmd's mklink needs host.fs.link; busybox ls on Windows reads
//   host.fs.readOnlyAttribute (no POSIX modes there).
// - netstat ("netstat.exe" / busybox "netstat") reads host.net.socketTable(own address);
//   without it the table is empty.
// - net.resolve applies the resolver's search rules; the interpreter passes the
//   name as typed (nslookup / agnhost / Resolve-DnsName try suffixes themselves).
// - An SSH session on a Windows node should use runCommandLine("cmd.exe /c " +
//   command), which keeps the client's command line byte for byte.

import type { RunCommand, ShellHost, ShellIO } from './types.ts';
import { joinWindowsArgv } from './quote.ts';
import { launchArgv, launchWindows } from './programs.ts';
import { ABORTED_EXIT } from './io.ts';

export type { RunCommand, ShellHost, ShellIO } from './types.ts';

export const runCommand: RunCommand = async (argv: string[], host: ShellHost, io: ShellIO): Promise<number> => {
  if (host.os === 'windows') return runCommandLine(joinWindowsArgv(argv), host, io);
  if (io.signal.aborted) return ABORTED_EXIT;
  const code = await launchArgv(argv, host, io, { ...host.env });
  if (code !== undefined) return code;
  io.stderr.write(
    `OCI runtime exec failed: exec failed: unable to start container process: exec: "${argv[0] ?? ''}": executable file not found in $PATH: unknown\n`,
  );
  return 127;
};

/** Windows only: runs one raw command line, as CreateProcess receives it (docs/windows-commands.md §0). */
export async function runCommandLine(line: string, host: ShellHost, io: ShellIO): Promise<number> {
  if (io.signal.aborted) return ABORTED_EXIT;
  const code = await launchWindows(line, host, io, { ...host.env });
  if (code !== undefined) return code;
  // hcsshim's CreateProcess fails and the exec never starts; containerd reports it.
  const program = line.trim().split(/\s+/)[0] ?? '';
  io.stderr.write(
    `failed to exec in container: failed to create exec "${program}": hcs::System::CreateProcess: The system cannot find the file specified.\r\n`,
  );
  return 127;
}
