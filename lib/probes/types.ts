// Probes: typed operations run inside a pod (or on a node), rendered into the right
// command for its OS. A Transport carries the command; the result carries evidence.

import type { CommandResult } from '../cluster/exec.ts';

export type ProbeOS = 'windows' | 'linux';

/** Where a command runs. Pod exec today; HostProcess pods and SSH implement the same. */
export interface Transport {
  /** "exec wincheck-ab12/iis [iis]" or "ssh administrator@10.0.0.4": shown in evidence. */
  readonly description: string;
  readonly os: ProbeOS;
  /** argv (exec) or a command line (SSH, whose default shell on Windows is cmd.exe). */
  run(command: string[] | string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<CommandResult>;
}

export type ProbeOp =
  /** Success = 2xx/3xx within the connect timeout (curl --fail). An IPv6 literal ([...]) turns curl's URL globbing off. */
  | { kind: 'http-get'; url: string; connectTimeoutSec?: number }
  | { kind: 'tcp-connect'; host: string; port: number; timeoutSec?: number }
  /** Success = resolved (exit 0 and no "can't find" / "could not resolve" on stderr). */
  | { kind: 'dns-lookup'; name: string }
  /**
   * Reads an environment variable. With `expect`, the result says only whether it
   * matched: the value is compared here and never kept (secret values).
   */
  | { kind: 'read-env'; name: string; expect?: string; secret?: boolean }
  | { kind: 'read-file'; path: string }
  | { kind: 'write-file'; path: string; content: string }
  /** ICMP echo; success = a reply (TTL= / "bytes from") seen, not the exit code. */
  | { kind: 'ping'; host: string; count?: number }
  /** A PowerShell script on Windows (its exit code is the verdict), sh on Linux. */
  | { kind: 'node-command'; script: string }
  /** Prints `text` (a marker that shows exec works in the container). */
  | { kind: 'echo'; text: string }
  /** The environment variables whose names start with `prefix`, NAME=value a line. */
  | { kind: 'list-env'; prefix: string }
  /** The user the process runs as, as the OS names it (whoami: DOMAIN\user on Windows). */
  | { kind: 'whoami' }
  /** The user name alone (%username% on Windows). */
  | { kind: 'user-name' }
  /** The OS's version line (cmd's ver: "Microsoft Windows [Version 10.0.20348.2402]"). */
  | { kind: 'os-version' }
  /** The names in a directory, one a line. */
  | { kind: 'list-dir'; path: string }
  /** A directory's entries with their mode bits, links followed (ls -lL). */
  | { kind: 'file-modes'; path: string }
  /**
   * A file's owner, group and access rules as one line of JSON: Windows Get-Acl projected to
   * {Owner, Group, Access: [{Identity, Rights (FileSystemRights' number), Type}]}; Linux stat.
   */
  | { kind: 'file-acl'; path: string }
  /** Deletes files; missing ones are not an error the caller reads. */
  | { kind: 'delete-files'; paths: string[] }
  /** Makes `dir` holding marker.txt with `marker`, and `link` a junction (Windows) or symlink to it. */
  | { kind: 'make-junction'; dir: string; link: string; marker: string }
  /** Removes what make-junction made: the link, then the directory and its contents. */
  | { kind: 'remove-junction'; dir: string; link: string }
  /** The IP configuration of every interface (ipconfig; with `all`, ipconfig /all: DNS suffixes, servers). */
  | { kind: 'ip-config'; all?: boolean }
  /** TCP connections and listeners with numeric addresses (netstat). */
  | { kind: 'tcp-connections' }
  /** A node service's state (sc.exe queryex on Windows: STATE and PID). */
  | { kind: 'service-query'; name: string }
  /** The host's container networks (hnsdiag list networks on Windows). */
  | { kind: 'host-networks' }
  /** An argv run as is, for anything the kinds above do not cover. */
  | { kind: 'raw'; argv: string[] };

export interface ProbeResult {
  op: ProbeOp['kind'];
  /** The op's own verdict (see each kind). */
  ok: boolean;
  /** One line: why ok is what it is. */
  detail: string;
  evidence: Evidence;
}

/** What was run and what came back, with secret values redacted. */
export interface Evidence {
  transport: string;
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  durationMs: number;
}
