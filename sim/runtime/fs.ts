// In-memory file systems: a node's disk, a container's writable layer, volume
// backings (tmpfs), and the container's view that stitches them by mount path.
// Windows paths: `C:\etc\foo`, `C:/etc/foo` and `c:\ETC\foo` are the same path
// (the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md) "paths must be escaped or use forward slashes"), and `/cache` means `C:\cache`.

import { FsError, type AccessRule, type FileAcl, type ShellFS } from './shell/types.ts';

export type PathStyle = 'windows' | 'linux';

interface FileNode {
  kind: 'file';
  name: string;
  data: Buffer;
  mtime: Date;
  mode: number;
}
interface DirNode {
  kind: 'dir';
  name: string;
  children: Map<string, FsNode>;
  mtime: Date;
  mode: number;
}
/** A Windows junction (`mklink /J`): an absolute target path in the namespace of whoever follows it. */
interface LinkNode {
  kind: 'link';
  name: string;
  target: string[];
  mtime: Date;
  mode: number;
}
type FsNode = FileNode | DirNode | LinkNode;

/** Junction chains longer than this fail, as Windows' reparse-point limit (63) would. */
const MAX_LINK_HOPS = 32;

/** Splits a path into parts. Windows: the first part is the drive ("c:"); relative paths start at `cwd`. */
export function splitPath(path: string, style: PathStyle, cwd: string[] = style === 'windows' ? ['c:'] : []): string[] {
  let p = path;
  let parts: string[];
  if (style === 'windows') {
    p = p.replace(/\//g, '\\');
    const drive = /^([A-Za-z]):/.exec(p);
    if (drive) {
      parts = [`${drive[1].toLowerCase()}:`];
      p = p.slice(2);
    } else if (p.startsWith('\\')) parts = [cwd[0] ?? 'c:'];
    else parts = [...cwd];
    if (!drive && !p.startsWith('\\') && parts.length === 0) parts = ['c:'];
  } else {
    parts = p.startsWith('/') ? [] : [...cwd];
  }
  for (const seg of p.split(style === 'windows' ? '\\' : '/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') {
      if (parts.length > (style === 'windows' ? 1 : 0)) parts.pop();
      continue;
    }
    parts.push(seg);
  }
  return parts;
}

/** Joins parts back as the OS spells them: `C:\a\b` or `/a/b`. */
export function joinPath(parts: string[], style: PathStyle): string {
  if (style === 'windows') {
    const [drive, ...rest] = parts;
    return `${(drive ?? 'c:').toUpperCase()}\\${rest.join('\\')}`;
  }
  return '/' + parts.join('/');
}

/** A tree of directories and files. Windows file systems are case-insensitive but keep case. */
export class MemFS {
  private root: DirNode = { kind: 'dir', name: '', children: new Map(), mtime: new Date(), mode: 0o755 };
  constructor(readonly caseInsensitive: boolean) {}

  private key(name: string): string {
    return this.caseInsensitive ? name.toLowerCase() : name;
  }

  private walk(parts: string[]): FsNode | undefined {
    let cur: FsNode = this.root;
    for (const p of parts) {
      if (cur.kind !== 'dir') return undefined;
      const next: FsNode | undefined = cur.children.get(this.key(p));
      if (!next) return undefined;
      cur = next;
    }
    return cur;
  }

  private dirAt(parts: string[], create: boolean, shown: string): DirNode {
    let cur: DirNode = this.root;
    for (const p of parts) {
      let next = cur.children.get(this.key(p));
      if (!next) {
        if (!create) throw new FsError('ENOENT', `${shown}: no such file or directory`);
        next = { kind: 'dir', name: p, children: new Map(), mtime: new Date(), mode: 0o755 };
        cur.children.set(this.key(p), next);
      }
      if (next.kind !== 'dir') throw new FsError('ENOTDIR', `${shown}: not a directory`);
      cur = next;
    }
    return cur;
  }

  /**
   * The path with every junction on it replaced by its target: what a process on the
   * machine that owns this file system reaches (a node-level process follows the node's
   * junctions). Parts past a missing entry are kept as given.
   */
  realPath(parts: string[], shown = parts.join('/')): string[] {
    let out: string[] = [];
    let rest = [...parts];
    let cur: FsNode = this.root;
    for (let hops = 0; rest.length;) {
      const p = rest.shift()!;
      const next: FsNode | undefined = cur.kind === 'dir' ? cur.children.get(this.key(p)) : undefined;
      if (next?.kind === 'link') {
        if (++hops > MAX_LINK_HOPS) throw new FsError('ENOENT', `${shown}: too many levels of junctions`);
        rest = [...next.target, ...rest];
        out = [];
        cur = this.root;
        continue;
      }
      out.push(p);
      if (!next) return [...out, ...rest];
      cur = next;
    }
    return out;
  }

  /** The first junction on the way to `parts` (none followed), as an index into parts and its target. */
  firstLink(parts: string[]): { at: number; target: string[] } | undefined {
    let cur: FsNode = this.root;
    for (const [i, p] of parts.entries()) {
      if (cur.kind !== 'dir') return undefined;
      const next: FsNode | undefined = cur.children.get(this.key(p));
      if (!next) return undefined;
      if (next.kind === 'link') return { at: i, target: [...next.target] };
      cur = next;
    }
    return undefined;
  }

  /** Creates a junction at `parts` pointing to `target` (which need not exist, as with mklink /J). */
  link(parts: string[], target: string[], shown = parts.join('/')): void {
    const real = [...this.realPath(parts.slice(0, -1), shown), parts[parts.length - 1]!];
    if (parts.length === 0 || this.walk(real)) throw new FsError('EEXIST', `${shown}: file exists`);
    const dir = this.dirAt(real.slice(0, -1), false, shown);
    dir.children.set(this.key(real[real.length - 1]!), { kind: 'link', name: real[real.length - 1]!, target: [...target], mtime: new Date(), mode: 0o777 });
  }

  exists(parts: string[]): boolean {
    return this.walk(this.realPath(parts)) !== undefined;
  }
  isDir(parts: string[]): boolean {
    return this.walk(this.realPath(parts))?.kind === 'dir';
  }

  read(parts: string[], shown = parts.join('/')): Buffer {
    const n = this.walk(this.realPath(parts, shown));
    if (!n) throw new FsError('ENOENT', `${shown}: no such file or directory`);
    if (n.kind !== 'file') throw new FsError('EISDIR', `${shown}: is a directory`);
    return Buffer.from(n.data);
  }

  /** Writes a file; parent directories must exist unless `mkdirs`. */
  write(parts: string[], data: Buffer | string, opts: { append?: boolean; mkdirs?: boolean; mode?: number; shown?: string } = {}): void {
    const shown = opts.shown ?? parts.join('/');
    if (parts.length === 0) throw new FsError('EISDIR', `${shown}: is a directory`);
    const real = this.realPath(parts, shown);
    const dir = this.dirAt(real.slice(0, -1), opts.mkdirs ?? false, shown);
    const name = real[real.length - 1]!;
    const cur = dir.children.get(this.key(name));
    if (cur && cur.kind !== 'file') throw new FsError('EISDIR', `${shown}: is a directory`);
    const buf = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
    const next = opts.append && cur ? Buffer.concat([cur.data, buf]) : buf;
    dir.children.set(this.key(name), { kind: 'file', name: cur?.name ?? name, data: next, mtime: new Date(), mode: opts.mode ?? cur?.mode ?? 0o644 });
  }

  mkdir(parts: string[]): void {
    this.dirAt(this.realPath(parts), true, parts.join('/'));
  }

  list(parts: string[], shown = parts.join('/')): { name: string; dir: boolean; size: number; mtime: Date }[] {
    const n = this.walk(this.realPath(parts, shown));
    if (!n) throw new FsError('ENOENT', `${shown}: no such file or directory`);
    if (n.kind !== 'dir') throw new FsError('ENOTDIR', `${shown}: not a directory`);
    // A junction lists as a directory (`dir` shows <JUNCTION>, a directory entry).
    return [...n.children.values()]
      .map(c => ({ name: c.name, dir: c.kind !== 'file', size: c.kind === 'file' ? c.data.length : 0, mtime: c.mtime }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  remove(parts: string[], shown = parts.join('/')): void {
    if (parts.length === 0) throw new FsError('EACCES', `${shown}: permission denied`);
    // The last part is not followed: removing a junction removes the link, not its target.
    const parent = this.walk(this.realPath(parts.slice(0, -1), shown));
    if (!parent || parent.kind !== 'dir' || !parent.children.has(this.key(parts[parts.length - 1])))
      throw new FsError('ENOENT', `${shown}: no such file or directory`);
    parent.children.delete(this.key(parts[parts.length - 1]));
  }

  mode(parts: string[]): number | undefined {
    return this.walk(this.realPath(parts))?.mode;
  }
  chmod(parts: string[], mode: number): void {
    const n = this.walk(this.realPath(parts));
    if (n) n.mode = mode;
  }

  /** Size of all files under parts (for ephemeral-storage stats); junctions are not followed. */
  usedBytes(parts: string[] = []): number {
    const sum = (n: FsNode): number => (n.kind === 'file' ? n.data.length : n.kind === 'link' ? 0 : [...n.children.values()].reduce((a, c) => a + sum(c), 0));
    const n = this.walk(this.realPath(parts));
    return n ? sum(n) : 0;
  }
}

/** A volume (or the root layer) mounted into a container at `at`, backed by `fs` under `base`. */
export interface Mount {
  at: string[];
  fs: MemFS;
  base: string[];
  readOnly: boolean;
  /** For diagnostics: volume name. */
  name: string;
  /**
   * Junctions made under the mount's source on the host after the container started are
   * followed on the host (mount propagation HostToContainer/Bidirectional). Otherwise a
   * junction's absolute target is resolved in the container's own namespace, as with a
   * private mount: the kubelet makes every Windows mount private (translateMountPropagation
   * in kubelet_pods.go; the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md): no mount propagation on Windows).
   */
  hostLinks?: boolean;
}

/**
 * The container's view: the image's writable layer plus mounts, longest mount path
 * first. Writes under a readOnly mount fail as Windows reports them ("Access is
 * denied.", docs/windows-commands.md §1) or Linux does (EROFS).
 */
export class ContainerFS implements ShellFS {
  constructor(
    readonly style: PathStyle,
    private rootfs: MemFS,
    private mounts: Mount[],
    private cwd: string[] = style === 'windows' ? ['c:'] : [],
    private opts: { modes?: boolean; readOnlyRoot?: boolean; volumeAclWithoutUsers?: boolean } = {},
  ) {
    // Mount points exist as directories in the root layer so `dir` / `ls` show them.
    for (const m of mounts) rootfs.mkdir(m.at);
  }

  private same(a: string, b: string): boolean {
    return this.style === 'windows' ? a.toLowerCase() === b.toLowerCase() : a === b;
  }

  /** `followLast: false` (remove) leaves a junction named last as itself. */
  private resolve(path: string, followLast = true): { fs: MemFS; parts: string[]; mount?: Mount; shown: string } {
    const parts = splitPath(path, this.style, this.cwd);
    return this.resolveParts(parts, joinPath(parts, this.style), followLast, 0);
  }

  private resolveParts(parts: string[], shown: string, followLast: boolean, hops: number): { fs: MemFS; parts: string[]; mount?: Mount; shown: string } {
    let best: Mount | undefined;
    for (const m of this.mounts) {
      if (m.at.length > parts.length) continue;
      if (!m.at.every((p, i) => this.same(p, parts[i]))) continue;
      if (!best || m.at.length > best.at.length) best = m;
    }
    if (!best) return { fs: this.rootfs, parts, shown };
    const inner = [...best.base, ...parts.slice(best.at.length)];
    if (!best.hostLinks) {
      // A junction inside a private mount: its target is looked up in this container's
      // namespace again, where the host path it names is (normally) absent.
      const l = best.fs.firstLink(inner);
      if (l && l.at >= best.base.length && (followLast || l.at < inner.length - 1)) {
        if (hops >= 32) throw new FsError('ENOENT', `${shown}: too many levels of junctions`);
        return this.resolveParts([...l.target, ...inner.slice(l.at + 1)], shown, followLast, hops + 1);
      }
    }
    return { fs: best.fs, parts: inner, mount: best, shown };
  }

  private checkWritable(r: { mount?: Mount; shown: string }): void {
    const ro = r.mount ? r.mount.readOnly : this.opts.readOnlyRoot;
    if (!ro) return;
    if (this.style === 'windows') throw new FsError('EACCES', 'Access is denied.');
    throw new FsError('EROFS', `${r.shown}: Read-only file system`);
  }

  read(path: string): Buffer {
    const r = this.resolve(path);
    return r.fs.read(r.parts, r.shown);
  }
  write(path: string, data: Buffer, opts: { append?: boolean } = {}): void {
    const r = this.resolve(path);
    this.checkWritable(r);
    // A file with the read-only attribute refuses writes on Windows whatever the mount says.
    if (this.readOnlyAttribute(path)) throw new FsError('EACCES', 'Access is denied.');
    r.fs.write(r.parts, data, { append: opts.append, shown: r.shown });
  }
  list(path: string) {
    const r = this.resolve(path);
    return r.fs.list(r.parts, r.shown);
  }
  exists(path: string): boolean {
    const r = this.resolve(path);
    return r.fs.exists(r.parts);
  }
  isDir(path: string): boolean {
    const r = this.resolve(path);
    return r.fs.isDir(r.parts);
  }
  mkdir(path: string): void {
    const r = this.resolve(path);
    this.checkWritable(r);
    r.fs.mkdir(r.parts);
  }
  remove(path: string): void {
    const r = this.resolve(path, false);
    this.checkWritable(r);
    r.fs.remove(r.parts, r.shown);
  }
  /** `mklink /J`: a junction at `path` naming `target` (an absolute path of this namespace). */
  link(path: string, target: string): void {
    const r = this.resolve(path, false);
    this.checkWritable(r);
    r.fs.link(r.parts, splitPath(target, this.style, this.cwd), r.shown);
  }
  /** Windows has no POSIX modes (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) cfg.secret-defaultmode): undefined unless lifted. */
  mode(path: string): number | undefined {
    if (!this.opts.modes) return undefined;
    const r = this.resolve(path);
    return r.fs.mode(r.parts);
  }
  /**
   * Windows only: FILE_ATTRIBUTE_READONLY, the one permission a Windows file carries from
   * a mode. The kubelet writes secret/configMap files with os.WriteFile + os.Chmod(mode)
   * (atomic_writer.go), and Go on Windows uses only the 0200 bit of a mode: clear → the
   * read-only attribute is set (Go os.Chmod docs). So defaultMode 0400 gives a read-only
   * file and 0644 a normal one; group/other bits and owners are lost.
   */
  readOnlyAttribute(path: string): boolean | undefined {
    if (this.style !== 'windows') return undefined;
    const r = this.resolve(path);
    if (!r.fs.exists(r.parts) || r.fs.isDir(r.parts)) return false;
    const mode = r.fs.mode(r.parts);
    return mode !== undefined && (mode & 0o200) === 0;
  }
  /** Windows only: the inherited default ACL (defaultWindowsAcl); a volume's files without the Users rule under breaks: volume-file-acl. */
  acl(path: string): FileAcl | undefined {
    if (this.style !== 'windows') return undefined;
    const r = this.resolve(path);
    if (!r.fs.exists(r.parts)) return undefined;
    return defaultWindowsAcl(!!this.opts.volumeAclWithoutUsers && !!r.mount && r.mount.name !== 'container-volume');
  }
}

/**
 * FileSystemRights values (System.Security.AccessControl): FullControl, and ReadAndExecute with
 * Synchronize, as Get-Acl lists an inherited rule of BUILTIN\\Users.
 */
export const FULL_CONTROL = 0x1f01ff;
export const READ_AND_EXECUTE = 0x1200a9;

/**
 * The ACL a Windows file inherits from C:\\ when nothing sets one (the kubelet's AtomicWriter and
 * os.Chmod set none; Go on Windows keeps only the read-only attribute): SYSTEM and Administrators
 * full control, Users read and execute, owner Administrators, group SYSTEM. Not from a real
 * sample: the principals are the Windows defaults, chosen so that upstream's agnhost
 * filePermissions.ps1 reads the file as 0775, what test/e2e/windows/demo.go asserts for a ConfigMap
 * volume's file. `withoutUsers`: the Users rule missing (breaks: volume-file-acl).
 */
export function defaultWindowsAcl(withoutUsers = false): FileAcl {
  const rule = (identity: string, rights: number): AccessRule => ({ identity, rights, type: 'Allow', inherited: true });
  return {
    owner: 'BUILTIN\\Administrators',
    group: 'NT AUTHORITY\\SYSTEM',
    access: [
      rule('NT AUTHORITY\\SYSTEM', FULL_CONTROL),
      rule('BUILTIN\\Administrators', FULL_CONTROL),
      ...(withoutUsers ? [] : [rule('BUILTIN\\Users', READ_AND_EXECUTE)]),
    ],
  };
}

/** Shows a node-disk path as parts, e.g. nodePath('windows', 'C:\\var\\lib\\kubelet'). */
export const nodePath = (style: PathStyle, path: string) => splitPath(path, style);
