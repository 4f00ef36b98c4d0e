// In-memory file systems: a node's disk, a container's writable layer, volume
// backings (tmpfs), and the container's view that stitches them by mount path.
// Windows paths: `C:\etc\foo`, `C:/etc/foo` and `c:\ETC\foo` are the same path
// (seed 000 "paths must be escaped or use forward slashes"), and `/cache` means `C:\cache`.

import { FsError, type ShellFS } from './shell/types.ts';

export type PathStyle = 'windows' | 'linux';

interface FileNode { kind: 'file'; name: string; data: Buffer; mtime: Date; mode: number }
interface DirNode { kind: 'dir'; name: string; children: Map<string, FsNode>; mtime: Date; mode: number }
type FsNode = FileNode | DirNode;

/** Splits a path into parts. Windows: the first part is the drive ("c:"); relative paths start at `cwd`. */
export function splitPath(path: string, style: PathStyle, cwd: string[] = style === 'windows' ? ['c:'] : []): string[] {
  let p = path;
  let parts: string[];
  if (style === 'windows') {
    p = p.replace(/\//g, '\\');
    const drive = /^([A-Za-z]):/.exec(p);
    if (drive) { parts = [`${drive[1].toLowerCase()}:`]; p = p.slice(2); }
    else if (p.startsWith('\\')) parts = [cwd[0] ?? 'c:'];
    else parts = [...cwd];
    if (!drive && !p.startsWith('\\') && parts.length === 0) parts = ['c:'];
  } else {
    parts = p.startsWith('/') ? [] : [...cwd];
  }
  for (const seg of p.split(style === 'windows' ? '\\' : '/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') { if (parts.length > (style === 'windows' ? 1 : 0)) parts.pop(); continue; }
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

  private key(name: string): string { return this.caseInsensitive ? name.toLowerCase() : name; }

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

  exists(parts: string[]): boolean { return this.walk(parts) !== undefined; }
  isDir(parts: string[]): boolean { return this.walk(parts)?.kind === 'dir'; }

  read(parts: string[], shown = parts.join('/')): Buffer {
    const n = this.walk(parts);
    if (!n) throw new FsError('ENOENT', `${shown}: no such file or directory`);
    if (n.kind === 'dir') throw new FsError('EISDIR', `${shown}: is a directory`);
    return Buffer.from(n.data);
  }

  /** Writes a file; parent directories must exist unless `mkdirs`. */
  write(parts: string[], data: Buffer | string, opts: { append?: boolean; mkdirs?: boolean; mode?: number; shown?: string } = {}): void {
    const shown = opts.shown ?? parts.join('/');
    if (parts.length === 0) throw new FsError('EISDIR', `${shown}: is a directory`);
    const dir = this.dirAt(parts.slice(0, -1), opts.mkdirs ?? false, shown);
    const name = parts[parts.length - 1];
    const cur = dir.children.get(this.key(name));
    if (cur?.kind === 'dir') throw new FsError('EISDIR', `${shown}: is a directory`);
    const buf = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
    const next = opts.append && cur ? Buffer.concat([cur.data, buf]) : buf;
    dir.children.set(this.key(name), { kind: 'file', name: cur?.name ?? name, data: next, mtime: new Date(), mode: opts.mode ?? cur?.mode ?? 0o644 });
  }

  mkdir(parts: string[]): void { this.dirAt(parts, true, parts.join('/')); }

  list(parts: string[], shown = parts.join('/')): { name: string; dir: boolean; size: number; mtime: Date }[] {
    const n = this.walk(parts);
    if (!n) throw new FsError('ENOENT', `${shown}: no such file or directory`);
    if (n.kind !== 'dir') throw new FsError('ENOTDIR', `${shown}: not a directory`);
    return [...n.children.values()].map(c => ({ name: c.name, dir: c.kind === 'dir', size: c.kind === 'file' ? c.data.length : 0, mtime: c.mtime }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  remove(parts: string[], shown = parts.join('/')): void {
    if (parts.length === 0) throw new FsError('EACCES', `${shown}: permission denied`);
    const parent = this.walk(parts.slice(0, -1));
    if (!parent || parent.kind !== 'dir' || !parent.children.has(this.key(parts[parts.length - 1])))
      throw new FsError('ENOENT', `${shown}: no such file or directory`);
    parent.children.delete(this.key(parts[parts.length - 1]));
  }

  mode(parts: string[]): number | undefined { return this.walk(parts)?.mode; }
  chmod(parts: string[], mode: number): void { const n = this.walk(parts); if (n) n.mode = mode; }

  /** Size of all files under parts (for ephemeral-storage stats). */
  usedBytes(parts: string[] = []): number {
    const sum = (n: FsNode): number => n.kind === 'file' ? n.data.length : [...n.children.values()].reduce((a, c) => a + sum(c), 0);
    const n = this.walk(parts);
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
}

/**
 * The container's view: the image's writable layer plus mounts, longest mount path
 * first. Writes under a readOnly mount fail as Windows reports them ("Access is
 * denied.", WINDOWS-COMMANDS §1) or Linux does (EROFS).
 */
export class ContainerFS implements ShellFS {
  constructor(readonly style: PathStyle, private rootfs: MemFS, private mounts: Mount[], private cwd: string[] = style === 'windows' ? ['c:'] : [],
    private opts: { modes?: boolean; readOnlyRoot?: boolean } = {}) {
    // Mount points exist as directories in the root layer so `dir` / `ls` show them.
    for (const m of mounts) rootfs.mkdir(m.at);
  }

  private same(a: string, b: string): boolean { return this.style === 'windows' ? a.toLowerCase() === b.toLowerCase() : a === b; }

  private resolve(path: string): { fs: MemFS; parts: string[]; mount?: Mount; shown: string } {
    const parts = splitPath(path, this.style, this.cwd);
    let best: Mount | undefined;
    for (const m of this.mounts) {
      if (m.at.length > parts.length) continue;
      if (!m.at.every((p, i) => this.same(p, parts[i]))) continue;
      if (!best || m.at.length > best.at.length) best = m;
    }
    const shown = joinPath(parts, this.style);
    if (!best) return { fs: this.rootfs, parts, shown };
    return { fs: best.fs, parts: [...best.base, ...parts.slice(best.at.length)], mount: best, shown };
  }

  private checkWritable(r: { mount?: Mount; shown: string }): void {
    const ro = r.mount ? r.mount.readOnly : this.opts.readOnlyRoot;
    if (!ro) return;
    if (this.style === 'windows') throw new FsError('EACCES', 'Access is denied.');
    throw new FsError('EROFS', `${r.shown}: Read-only file system`);
  }

  read(path: string): Buffer { const r = this.resolve(path); return r.fs.read(r.parts, r.shown); }
  write(path: string, data: Buffer, opts: { append?: boolean } = {}): void {
    const r = this.resolve(path);
    this.checkWritable(r);
    r.fs.write(r.parts, data, { append: opts.append, shown: r.shown });
  }
  list(path: string) { const r = this.resolve(path); return r.fs.list(r.parts, r.shown); }
  exists(path: string): boolean { const r = this.resolve(path); return r.fs.exists(r.parts); }
  isDir(path: string): boolean { const r = this.resolve(path); return r.fs.isDir(r.parts); }
  mkdir(path: string): void { const r = this.resolve(path); this.checkWritable(r); r.fs.mkdir(r.parts); }
  remove(path: string): void { const r = this.resolve(path); this.checkWritable(r); r.fs.remove(r.parts, r.shown); }
  /** Windows has no POSIX modes (FEATURES.md cfg.secret-defaultmode): undefined unless lifted. */
  mode(path: string): number | undefined {
    if (!this.opts.modes) return undefined;
    const r = this.resolve(path);
    return r.fs.mode(r.parts);
  }
}

/** Shows a node-disk path as parts, e.g. nodePath('windows', 'C:\\var\\lib\\kubelet'). */
export const nodePath = (style: PathStyle, path: string) => splitPath(path, style);
