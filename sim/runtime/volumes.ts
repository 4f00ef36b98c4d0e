// Pod volumes with real contents: emptyDir, hostPath, secret, configMap, projected,
// downwardAPI, PVC. Backings live on the node's disk under the kubelet's pod dir, as
// on a real node; Linux secrets and memory emptyDirs get a tmpfs (a private MemFS).
// On Windows secret files land in plaintext on the node's disk (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/), the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/)
// cfg.secret-at-rest) where node-level probes (HostProcess, SSH) can read them.

import type { V1ConfigMap, V1Container, V1KeyToPath, V1PersistentVolumeClaim, V1Pod, V1Secret, V1Volume } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import { MemFS, splitPath, type Mount, type PathStyle } from './fs.ts';
import { NFS_INDEX_HTML } from './images.ts';

/** A volume could not be set up: the pod stays ContainerCreating with a FailedMount event (retried). */
export class MountError extends Error {
  /** The kubelet's event reason: FailedMount, or FailedMapVolume for a raw block device. */
  constructor(
    message: string,
    readonly reason: 'FailedMount' | 'FailedMapVolume' = 'FailedMount',
  ) {
    super(message);
  }
}

/** The documented Windows limitations the volume code enforces. */
export type VolumeLimitation = 'emptyDirMemory' | 'secretAtRest' | 'secretDefaultMode' | 'nfs' | 'mountPropagation' | 'blockVolume' | 'subPathHandleLeak';

/** The supported volume behaviours a profile can break. */
export type VolumeBreak =
  'secret-volume' | 'configmap-volume' | 'hostpath' | 'emptydir' | 'emptydir-memory' | 'subpath' | 'subpath-handle-leak' | 'emptydir-readonly';

export interface PodVolume {
  name: string;
  fs: MemFS;
  base: string[];
  readOnly: boolean;
  kind?: 'hostPath' | 'emptyDir';
  /** Held in memory (a tmpfs): its stats report the node's memory, not its disk. */
  inMemory?: boolean;
}

export interface VolumeContext {
  store: Store;
  pod: V1Pod;
  style: PathStyle;
  /** The node's own disk (hostPath, kubelet pod dirs). */
  disk: MemFS;
  /** Per-PV backing stores, shared by every node (a network disk). */
  pvStore: Map<string, MemFS>;
  /** True when a documented Windows limitation holds for this pod (always false on Linux). */
  limited(key: VolumeLimitation): boolean;
  /** True when a supported behaviour is broken for this pod. */
  broken(key: VolumeBreak): boolean;
  serviceAccountToken(): string;
  caCert(): string;
}

const decode = (b64: string) => Buffer.from(b64, 'base64');

/** The kubelet's directory for a pod's volumes of one plugin, e.g. kubernetes.io~secret. */
export function podVolumeDir(style: PathStyle, uid: string, plugin: string, vol: string): string[] {
  const root = style === 'windows' ? 'C:\\var\\lib\\kubelet' : '/var/lib/kubelet';
  return splitPath(`${root}/pods/${uid}/volumes/${plugin}/${vol}`, style);
}

export function podDir(style: PathStyle, uid: string): string[] {
  return splitPath(style === 'windows' ? `C:\\var\\lib\\kubelet\\pods\\${uid}` : `/var/lib/kubelet/pods/${uid}`, style);
}

type KeyedData = { data: Record<string, Buffer>; modeOf?: number };

function writeKeyed(fs: MemFS, base: string[], data: Record<string, Buffer>, items: V1KeyToPath[] | undefined, defaultMode: number, style: PathStyle): void {
  fs.mkdir(base);
  const entries: [string, string, number][] = items?.length
    ? items.filter(i => i.key in data).map(i => [i.key, i.path, i.mode ?? defaultMode])
    : Object.keys(data).map(k => [k, k, defaultMode]);
  for (const [key, path, mode] of entries) fs.write([...base, ...splitPath(path, 'linux')], data[key], { mkdirs: true, mode });
  void style;
}

function secretData(store: Store, ns: string, name: string): KeyedData | undefined {
  const s = store.tryGet('secrets', ns, name) as unknown as V1Secret | undefined;
  if (!s) return undefined;
  const data: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(s.data ?? {})) data[k] = decode(v);
  for (const [k, v] of Object.entries(s.stringData ?? {})) data[k] = Buffer.from(v);
  return { data };
}

function configMapData(store: Store, ns: string, name: string): KeyedData | undefined {
  const cm = store.tryGet('configmaps', ns, name) as unknown as V1ConfigMap | undefined;
  if (!cm) return undefined;
  const data: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(cm.data ?? {})) data[k] = Buffer.from(v);
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) data[k] = decode(v);
  return { data };
}

function downward(pod: V1Pod, path: string): string {
  const m = pod.metadata!;
  const sel = /^metadata\.(labels|annotations)(?:\['(.+)'\])?$/.exec(path);
  if (sel) {
    const map = (sel[1] === 'labels' ? m.labels : m.annotations) ?? {};
    if (sel[2]) return map[sel[2]] ?? '';
    return Object.entries(map)
      .sort()
      .map(([k, v]) => `${k}="${v}"`)
      .join('\n');
  }
  if (path === 'metadata.name') return m.name ?? '';
  if (path === 'metadata.namespace') return m.namespace ?? '';
  if (path === 'metadata.uid') return m.uid ?? '';
  return '';
}

/** Sets up one volume; throws MountError with the kubelet's FailedMount text. */
function setUp(v: V1Volume, ctx: VolumeContext, existing?: PodVolume): PodVolume {
  const { pod, style, disk } = ctx;
  const ns = pod.metadata!.namespace!;
  const uid = pod.metadata!.uid!;
  const failed = (why: string) => new MountError(`MountVolume.SetUp failed for volume "${v.name}" : ${why}`);
  const onDisk = (plugin: string): PodVolume => {
    const base = podVolumeDir(style, uid, plugin, v.name);
    disk.mkdir(base);
    return { name: v.name, fs: disk, base, readOnly: false };
  };
  const tmpfs = (): PodVolume => ({ name: v.name, fs: new MemFS(style === 'windows'), base: [], readOnly: false });
  // A resync rewrites the same backing (containers hold it through their mounts), emptied first.
  const reuse = (): PodVolume | undefined => {
    if (!existing) return undefined;
    if (existing.fs.isDir(existing.base)) for (const e of existing.fs.list(existing.base)) existing.fs.remove([...existing.base, e.name]);
    return existing;
  };

  if (v.emptyDir) {
    if (v.emptyDir.medium === 'Memory') {
      // "Memory as the storage medium" is not supported on Windows nodes
      // (https://kubernetes.io/docs/concepts/storage/windows-storage/): the Windows mounter makes a
      // plain directory for tmpfs (k8s.io/mount-utils mount_windows.go), so the pod starts and the
      // volume lives on the node's disk. breaks: emptydir-memory refuses the mount instead.
      if (ctx.broken('emptydir-memory')) throw failed('emptyDir medium "Memory" is not supported on Windows nodes');
      if (ctx.limited('emptyDirMemory')) return { ...onDisk('kubernetes.io~empty-dir'), kind: 'emptyDir' };
      return { ...tmpfs(), kind: 'emptyDir', inMemory: true };
    }
    // breaks: emptydir gives each container its own copy (see containerMounts).
    return { ...onDisk('kubernetes.io~empty-dir'), kind: 'emptyDir' };
  }
  if (v.hostPath) {
    const parts = splitPath(v.hostPath.path, style);
    const shown = v.hostPath.path;
    const type = v.hostPath.type ?? '';
    if (ctx.broken('hostpath')) return { ...tmpfs(), kind: 'hostPath' };
    switch (type) {
      case 'DirectoryOrCreate':
        if (!disk.exists(parts)) disk.mkdir(parts);
        break;
      case 'Directory':
        if (!disk.isDir(parts)) throw failed(`hostPath type check failed: ${shown} is not a directory`);
        break;
      case 'FileOrCreate':
        if (!disk.exists(parts)) disk.write(parts, '', { mkdirs: true });
        break;
      case 'File':
        if (!disk.exists(parts) || disk.isDir(parts)) throw failed(`hostPath type check failed: ${shown} is not a file`);
        break;
      default:
        // No type: no check. The runtime creates a missing source directory for the bind mount.
        if (!disk.exists(parts)) disk.mkdir(parts);
    }
    return { name: v.name, fs: disk, base: parts, readOnly: false, kind: 'hostPath' };
  }
  const secretOrConfig = (
    kind: 'secret' | 'configmap',
    name: string,
    optional: boolean | undefined,
    items: V1KeyToPath[] | undefined,
    mode: number | undefined,
  ) => {
    const got = kind === 'secret' ? secretData(ctx.store, ns, name) : configMapData(ctx.store, ns, name);
    if (!got && !optional) throw failed(`${kind} "${name}" not found`);
    const plugin = kind === 'secret' ? 'kubernetes.io~secret' : 'kubernetes.io~configmap';
    // Linux: secrets in tmpfs. Windows: plaintext on the node's disk (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/)) unless lifted.
    const inMemory = kind === 'secret' && (style === 'linux' || !ctx.limited('secretAtRest'));
    // A tmpfs is mounted on the kubelet's volume directory, which exists on the disk (empty).
    if (inMemory && !existing) ctx.disk.mkdir(podVolumeDir(style, uid, plugin, v.name));
    const vol = reuse() ?? (inMemory ? tmpfs() : onDisk(plugin));
    const broken = ctx.broken(kind === 'secret' ? 'secret-volume' : 'configmap-volume');
    if (got && !broken) writeKeyed(vol.fs, vol.base, got.data, items, mode ?? 0o644, style);
    vol.readOnly = true;
    return vol;
  };
  if (v.secret) return secretOrConfig('secret', v.secret.secretName!, v.secret.optional, v.secret.items, v.secret.defaultMode);
  if (v.configMap) return secretOrConfig('configmap', v.configMap.name!, v.configMap.optional, v.configMap.items, v.configMap.defaultMode);
  if (v.downwardAPI) {
    const vol = reuse() ?? (style === 'windows' ? onDisk('kubernetes.io~downward-api') : tmpfs());
    vol.fs.mkdir(vol.base);
    for (const i of v.downwardAPI.items ?? [])
      vol.fs.write([...vol.base, ...splitPath(i.path, 'linux')], i.fieldRef ? downward(pod, i.fieldRef.fieldPath) : '', {
        mkdirs: true,
        mode: i.mode ?? v.downwardAPI.defaultMode ?? 0o644,
      });
    vol.readOnly = true;
    return vol;
  }
  if (v.projected) {
    const vol = reuse() ?? (style === 'windows' ? onDisk('kubernetes.io~projected') : tmpfs());
    vol.fs.mkdir(vol.base);
    const mode = v.projected.defaultMode ?? 0o644;
    for (const src of v.projected.sources ?? []) {
      if (src.secret) {
        const got = secretData(ctx.store, ns, src.secret.name!);
        if (!got && !src.secret.optional) throw failed(`secret "${src.secret.name}" not found`);
        if (got) writeKeyed(vol.fs, vol.base, got.data, src.secret.items, mode, style);
      } else if (src.configMap) {
        const got = configMapData(ctx.store, ns, src.configMap.name!);
        if (!got && !src.configMap.optional) throw failed(`configmap "${src.configMap.name}" not found`);
        if (got) writeKeyed(vol.fs, vol.base, got.data, src.configMap.items, mode, style);
      } else if (src.serviceAccountToken) {
        vol.fs.write([...vol.base, ...splitPath(src.serviceAccountToken.path, 'linux')], ctx.serviceAccountToken(), { mkdirs: true, mode });
      } else if (src.downwardAPI) {
        for (const i of src.downwardAPI.items ?? [])
          vol.fs.write([...vol.base, ...splitPath(i.path, 'linux')], i.fieldRef ? downward(pod, i.fieldRef.fieldPath) : '', { mkdirs: true, mode });
      } else if (src.clusterTrustBundle) {
        vol.fs.write([...vol.base, ...splitPath(src.clusterTrustBundle.path, 'linux')], ctx.caCert(), { mkdirs: true, mode });
      }
    }
    vol.readOnly = true;
    return vol;
  }
  if (v.persistentVolumeClaim) {
    const claim = v.persistentVolumeClaim.claimName;
    const pvc = ctx.store.tryGet('persistentvolumeclaims', ns, claim) as unknown as V1PersistentVolumeClaim | undefined;
    if (!pvc) throw failed(`persistentvolumeclaim "${claim}" not found`);
    const pv = pvc.spec?.volumeName;
    if (!pv) throw new MountError(`unbound immediate PersistentVolumeClaims: persistentvolumeclaim "${claim}" is not bound`);
    // the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) stor.block: raw block volumes are not supported on Windows nodes. The
    // kubelet's block-volume path (MapVolume) fails and the pod stays ContainerCreating;
    // the reason is the kubelet's FailedMapVolume, the wording after the volume is UNCONFIRMED.
    if (pvc.spec?.volumeMode === 'Block' && ctx.limited('blockVolume'))
      throw new MountError(
        `MapVolume.MapPodDevice failed for volume "${pv}" : raw block volumes (volumeMode: Block) are not supported on Windows nodes`,
        'FailedMapVolume',
      );
    let fs = ctx.pvStore.get(pv);
    if (!fs) {
      fs = new MemFS(style === 'windows');
      ctx.pvStore.set(pv, fs);
    }
    return { name: v.name, fs, base: [], readOnly: v.persistentVolumeClaim.readOnly ?? false };
  }
  if (v.nfs) {
    // the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) stor.nfs: NFS volumes are a Windows limitation.
    // mount-utils' Windows Mount refuses an inline NFS volume (no mount options) in these words
    // (staging/src/k8s.io/mount-utils/mount_windows.go; Go's %q quoting). An older mount-utils
    // skipped the mount and returned success, leaving the pod a local folder.
    if (ctx.limited('nfs')) {
      const target = `${style === 'windows' ? 'C:\\var\\lib\\kubelet' : '/var/lib/kubelet'}\\pods\\${uid}\\volumes\\kubernetes.io~nfs\\${v.name}`;
      throw failed(
        `mount options([]) should have at least 2 options, current number:0, source:${JSON.stringify(`${v.nfs.server}:${v.nfs.path}`)}, target:${JSON.stringify(target)}`,
      );
    }
    const key = `nfs:${v.nfs.server}:${v.nfs.path}`;
    let fs = ctx.pvStore.get(key);
    if (!fs) {
      fs = new MemFS(false);
      // What the e2e volume/nfs image exports (test/images/volume/nfs/index.html).
      fs.write(['index.html'], NFS_INDEX_HTML, { mkdirs: true });
      ctx.pvStore.set(key, fs);
    }
    return { name: v.name, fs, base: [], readOnly: v.nfs.readOnly ?? false };
  }
  // Other plugins (csi, ephemeral...): an empty private directory.
  return onDisk('kubernetes.io~other');
}

/** Sets up every volume of the pod, or throws the first MountError. */
export function setUpVolumes(ctx: VolumeContext): Map<string, PodVolume> {
  // The kubelet makes the pod's data directories before any volume (makePodDataDirs):
  // <root>/pods/<uid> with volumes/ and plugins/, whatever the volumes are backed by.
  const dir = podDir(ctx.style, ctx.pod.metadata!.uid!);
  for (const sub of ['volumes', 'plugins']) ctx.disk.mkdir([...dir, sub]);
  const out = new Map<string, PodVolume>();
  for (const v of ctx.pod.spec?.volumes ?? []) out.set(v.name, setUp(v, ctx));
  return out;
}

/** Re-writes secret/configMap/projected contents (the kubelet's periodic sync). */
export function refreshVolumes(ctx: VolumeContext, vols: Map<string, PodVolume>): void {
  for (const v of ctx.pod.spec?.volumes ?? []) {
    if (!(v.secret || v.configMap || v.projected || v.downwardAPI)) continue;
    try {
      const cur = vols.get(v.name);
      if (cur) setUp(v, ctx, cur);
    } catch {
      /* keep the old contents */
    }
  }
}

/**
 * The mounts of one container. A subPath mounts that directory of the volume, on Windows too
 * (the kubelet's pkg/volume/util/subpath/subpath_windows.go; upstream's Windows e2e
 * subpath_cleanup.go relies on it), unless broken: subpath mounts the whole volume, which is what
 * the Windows storage page still describes.
 */
export function containerMounts(c: V1Container, vols: Map<string, PodVolume>, ctx: Pick<VolumeContext, 'limited' | 'broken' | 'style'>): Mount[] {
  // HostToContainer/Bidirectional carry host-side changes into the container; Windows makes
  // every mount private (the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md); kubelet_pods.go translateMountPropagation) unless lifted.
  const propagates = (p: string | undefined) => (p === 'HostToContainer' || p === 'Bidirectional') && !ctx.limited('mountPropagation');
  const out: Mount[] = [];
  for (const vm of c.volumeMounts ?? []) {
    const v = vols.get(vm.name);
    if (!v) continue;
    const at = splitPath(vm.mountPath, ctx.style);
    let base = v.base;
    const fs = v.fs;
    const sub = vm.subPath ?? vm.subPathExpr;
    if (sub && !ctx.broken('subpath')) {
      base = [...base, ...splitPath(sub, 'linux')];
      if (!fs.exists(base)) fs.mkdir(base);
    }
    if (ctx.broken('emptydir') && v.kind === 'emptyDir') {
      // breaks: emptydir: each container sees its own, unshared directory.
      base = [...base, `..${c.name}`];
      fs.mkdir(base);
    }
    // breaks: hostpath also drops readOnly (the hostPath volume is a private tmpfs then);
    // emptydir-readonly drops it on emptyDir mounts.
    const readOnly = (vm.readOnly ?? false) || v.readOnly;
    const dropped = (ctx.broken('hostpath') && v.kind === 'hostPath') || (ctx.broken('emptydir-readonly') && v.kind === 'emptyDir');
    out.push({
      at,
      fs,
      base,
      readOnly: dropped ? false : readOnly,
      name: vm.name,
      hostLinks: propagates(vm.mountPropagation),
    });
  }
  return out;
}

/**
 * Whether the kubelet leaked the handles it took on this pod's subPath directories, so that its
 * volumes cannot be torn down once it is deleted (it stays Terminating): a container with several
 * subPath mounts on a kubelet before v1.37 (`leakyKubelet`, sim/nodes/versions.ts
 * subPathHandlesLeak) unless the profile lifts subPathHandleLeak, or on any version with
 * `breaks: subpath-handle-leak`. Only the last subPath of each container was cleaned up, so one
 * subPath leaks nothing; a subPath not honoured (`breaks: subpath`) was never prepared.
 */
export function subPathHandlesLeaked(pod: V1Pod, ctx: Pick<VolumeContext, 'limited' | 'broken'>, leakyKubelet: boolean): boolean {
  if (ctx.broken('subpath')) return false;
  const leaks = ctx.broken('subpath-handle-leak') || (leakyKubelet && ctx.limited('subPathHandleLeak'));
  return (
    leaks &&
    [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].some(c => (c.volumeMounts ?? []).filter(m => m.subPath || m.subPathExpr).length > 1)
  );
}
