// What the command interpreter sees of the place it runs in: a container (or a
// HostProcess container, or an SSH session on a Windows node). The runtime
// implements ShellHost; the interpreter (./index.ts) only talks to this.

import type { Writable, Readable } from 'node:stream';
import type { Endpoint, DnsConfig, NetworkTwin } from '../../network/types.ts';

/** A file system view: paths as the OS spells them (C:\x, C:/x, /cache), resolved by the host. */
export interface ShellFS {
  /** Returns file contents, or throws FsError. */
  read(path: string): Buffer;
  /** Creates or overwrites; throws FsError('EACCES') on a read-only mount ("Access is denied."). */
  write(path: string, data: Buffer, opts?: { append?: boolean }): void;
  list(path: string): { name: string; dir: boolean; size: number; mtime: Date }[];
  exists(path: string): boolean;
  isDir(path: string): boolean;
  mkdir(path: string): void;
  remove(path: string): void;
  /** POSIX-style mode bits where the OS has them (Linux); undefined on Windows. */
  mode?(path: string): number | undefined;
  /** Windows: the file's read-only attribute (the only mode bit Windows keeps); undefined on Linux. */
  readOnlyAttribute?(path: string): boolean | undefined;
  /** Windows: creates a junction (`mklink /J link target`); throws FsError('EEXIST') when link exists. */
  link?(path: string, target: string): void;
  /** Windows: the file's security descriptor as Get-Acl reads it; undefined on Linux or for a missing path. */
  acl?(path: string): FileAcl | undefined;
}

/** One access rule of a Windows ACL: FileSystemRights as its numeric value (FullControl 2032127...). */
export interface AccessRule {
  identity: string;
  rights: number;
  type: 'Allow' | 'Deny';
  inherited: boolean;
}

/** A Windows file's owner, group and access rules (System.Security.AccessControl.FileSecurity). */
export interface FileAcl {
  owner: string;
  group: string;
  access: AccessRule[];
}

export type FsErrorCode = 'ENOENT' | 'EACCES' | 'EISDIR' | 'ENOTDIR' | 'EROFS' | 'EEXIST';
export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ServiceState {
  name: string;
  displayName: string;
  status: 'Running' | 'Stopped';
  pid: number;
}
export interface HnsNetwork {
  id: string;
  name: string;
  type: string;
  subnets?: string[];
  managementIP?: string;
}
/** One HNS endpoint (a pod's network adapter), as Get-HnsEndpoint lists it. */
export interface HnsEndpoint {
  id: string;
  name: string;
  ipAddress: string;
  macAddress: string;
  type: string;
  virtualNetwork: string;
  virtualNetworkName: string;
}
export interface ComputeProcess {
  id: string;
  owner: string;
  type: 'Container' | 'VirtualMachine';
  isTemplate: boolean;
}

export interface ShellHost {
  os: 'linux' | 'windows';
  /** Windows build of the image/host, e.g. "10.0.20348.2582". */
  windowsBuild?: string;
  hostname: string;
  /** e.g. "ContainerUser", "ContainerAdministrator", "NT AUTHORITY\\SYSTEM", "root". */
  user: string;
  /** The process environment (K8s env merged over the image's defaults). */
  env: Record<string, string>;
  fs: ShellFS;
  /** Network identity and resolver settings of the container (or node). */
  endpoint: Endpoint;
  dns: DnsConfig;
  net: NetworkTwin;
  /** Interfaces shown by ipconfig / ip addr. */
  interfaces: {
    name: string;
    address: string;
    prefixLength: number;
    gateway?: string;
    dnsSuffix?: string;
    /** dual-stack: the adapter's IPv6 address. */ address6?: string;
  }[];
  /** Executables present in the image (lower-case basenames), e.g. "curl.exe", "powershell.exe", "nc". */
  hasBinary(name: string): boolean;
  /** Node-level views, present for HostProcess containers and SSH sessions on nodes. */
  node?: {
    services(): ServiceState[];
    hnsNetworks(): HnsNetwork[];
    hnsEndpoints?(): HnsEndpoint[];
    /** Get-HnsNetwork's module (hns.psm1) is imported on the node. */
    hnsModule?(): boolean;
    /** The node's local groups (lower-case names), as `net localgroup` adds and removes them. */
    localGroups?(): Set<string>;
    computeProcesses(): ComputeProcess[];
    /** shutdown.exe on the host: the node restarts (reboot) or powers off after delaySeconds. */
    shutdown?(o: { reboot: boolean; delaySeconds: number }): void;
  };
  /** The GPU a device plugin gave the container (microsoft.com/directx), as dxdiag shows it. */
  gpu?: { name: string; vendorId: string };
  /** The AD domain a gMSA credential spec gave the container (DomainJoinConfig.DnsName); unset: no domain. */
  domain?: string;
  /** Working directory commands start in (the container's workingDir); default "C:\\" on Windows, "/" on Linux. */
  cwd?: string;
  /** Process-level stats hooks (CPU burner, memory allocation) reported to the kubelet stats. */
  resources?: {
    burnCpu(millicores: number, ms: number, signal: AbortSignal): Promise<void>;
    allocateMemory(bytes: number): { ok: boolean; oomKilled: boolean };
    /** A program's own pacing between allocations (testlimit -e), time-scaled by the profile's evictionScale; false when stopped. */
    pace?(seconds: number, signal: AbortSignal): Promise<boolean>;
  };
  /** Starts a long-running server in the container (agnhost netexec, test-webserver...). */
  startServer?(argv: string[]): Promise<void>;
}

export interface ShellIO {
  stdin: Readable | null;
  stdout: Writable;
  stderr: Writable;
  signal: AbortSignal;
}

/** Runs argv as the container runtime would (argv[0] resolved on the image's PATH). Returns the exit code. */
export type RunCommand = (argv: string[], host: ShellHost, io: ShellIO) => Promise<number>;

export interface ProgramCtx {
  host: ShellHost;
  io: ShellIO;
  /** The name as invoked, lower-case basename without ".exe" ("powershell", "pwsh", "sh"). */
  name: string;
  args: string[];
  /** Windows: the raw command-line tail after the program (cmd and powershell parse it themselves). */
  cmdline: string;
  /** Environment the program inherits (cmd `set` / PowerShell `$env:` changes flow to children). */
  env: Record<string, string>;
  /** Starts other programs of the image (passed in, so a shell never imports the program table that imports it). */
  spawn: Spawn;
}

export type Program = (ctx: ProgramCtx) => Promise<number>;

/** How a program starts another (programs.ts implements it over its table). */
export interface Spawn {
  /** Resolves a program name on the image: Windows tries "<name>.exe" first, as PATHEXT would. */
  resolve(host: ShellHost, name: string): { key: string; run: Program } | undefined;
  /** Runs a Windows command line (program + tail), as CreateProcess would. Undefined when not found. */
  windows(line: string, host: ShellHost, io: ShellIO, env: Record<string, string>): Promise<number | undefined>;
  /** Runs argv on Linux (or busybox on Windows) as execve would. Undefined when not found. */
  argv(argv: string[], host: ShellHost, io: ShellIO, env: Record<string, string>): Promise<number | undefined>;
}
