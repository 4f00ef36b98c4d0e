// Storage (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Storage"): hostPath and emptyDir from the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md), the documented volume
// limitations (memory emptyDir, subPath, read-only root, propagation, NFS, raw block, resize) and
// PVCs from the default StorageClass. Every probe writes and reads real files in the container.
// Paths given to cmd use backslashes: cmd reads "/" as a switch.

import { permissions } from '../../cluster/permission.ts';
import { NODE_SUMMARY_ACCESS } from '../access.ts';
import type { CoreV1Event, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { apiStatusCode } from '../../cluster/apiError.ts';
import { watchUntil, WaitTimeoutError } from '../../cluster/watch.ts';
import { accessDenied } from '../kit/fileCompare.ts';
import { createPodLike } from '../kit/podCopy.ts';
import { describeSettled, fixturePodReady, podSettles, readyOrEvent, type Settled } from '../kit/podWaits.ts';
import type { Transport } from '../../probes/types.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import { control, meansOfStart, notStarted, podStarted, readableFileControl } from '../kit/observe.ts';
import type { ClusterInfo } from '../../discovery/types.ts';
import type { CheckContext, Expectation, EvidenceItem, Feature, Observation } from '../types.ts';
import { listAll } from '../../cluster/list.ts';
import { cite, sources, type Citation } from '../../facts/sources.ts';
import { podStatsOf, summaryUntil } from '../kit/kubeletStats.ts';
import { k8sAtLeast, SUBPATH_HANDLE_LEAK_FIXED, SUBPATH_HANDLE_LEAK_SOURCE } from '../../facts/kubernetes.ts';

/** The storage limitations' source: the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) and the upstream Windows storage docs. */
const STORAGE_DOCS = sources(cite.intro(), cite.intro('storage'));

/** Writes `content` to `writePath` over `w` and reads it back from `readPath` over `r`. */
async function roundTrip(
  ctx: CheckContext,
  w: Transport,
  writePath: string,
  r: Transport,
  readPath: string,
  content: string,
  evidence: EvidenceItem[],
): Promise<string | undefined> {
  const wr = await ctx.probe(w, { kind: 'write-file', path: writePath, content });
  evidence.push(wr.evidence);
  const rd = await ctx.probe(r, { kind: 'read-file', path: readPath });
  evidence.push(rd.evidence);
  const got = rd.evidence.stdout.replace(/\r?\n$/, '').trimEnd();
  if (!rd.ok)
    return `${readPath} could not be read after writing ${writePath}: ${rd.detail}${wr.evidence.stderr.trim() ? ` (the write said: ${wr.evidence.stderr.trim().slice(0, 100)})` : ''}`;
  if (got !== content) return `${readPath} contains "${got.slice(0, 60)}", not "${content}"`;
  return undefined;
}

/** A write that must be refused: "Access is denied." and no file afterwards. */
async function writeRefused(ctx: CheckContext, t: Transport, path: string, content: string, evidence: EvidenceItem[]): Promise<boolean> {
  const wr = await ctx.probe(t, { kind: 'write-file', path, content });
  evidence.push(wr.evidence);
  if (accessDenied(wr)) return true;
  const rd = await ctx.probe(t, { kind: 'read-file', path });
  evidence.push(rd.evidence);
  return !rd.ok;
}

/**
 * A pod of a limited feature that did not become Ready: the limitation as an observation. Its
 * control is the kubelet's own answer about the volume (a watched event such as FailedMount, or
 * a container the runtime refused to create); a pod that was never scheduled, could not pull or
 * got no sandbox is the harness's means failing (MeansError), and a crash says nothing.
 */
export function notReadyObservation(name: string, s: Exclude<Settled, { kind: 'ready' }>, what: string): Observation {
  const means = s.kind === 'failed' ? meansOfStart(name, s.error) : undefined;
  if (means) throw means;
  const events = s.kind === 'failed' ? s.error.events : s.events;
  const answered = s.kind === 'event' || ['CreateContainerError', 'RunContainerError'].includes(s.error.reason);
  return {
    works: false,
    summary: `${what}: ${describeSettled(name, s)}`,
    evidence: [describeSettled(name, s), ...events.slice(-3)],
    node: s.kind === 'failed' ? s.error.pod.spec?.nodeName : undefined,
    control: control(
      answered,
      answered
        ? `pod ${name} was scheduled and the kubelet answered about its volume (${s.kind === 'event' ? s.reason : s.error.reason})`
        : `pod ${name} failed with ${s.kind === 'failed' ? s.error.reason : 'no event'}, which does not name the volume`,
    ),
  };
}

const marker = (ctx: CheckContext, what: string) => `wincheck-${what}-${ctx.runId}`;

async function hostPathProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'hostpath';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const t = ctx.podTransport(name, 'windows');
  const evidence: EvidenceItem[] = [];
  const problems: string[] = [];
  const file = `${marker(ctx, 'hostpath')}.txt`;
  ctx.step(`writing C:\\etc\\foo\\${file} (hostPath "C:\\\\etc\\\\foo"), reading it through C:\\etc\\foo-ro (hostPath "C:/etc/foo")`);
  const rt = await roundTrip(ctx, t, `C:\\etc\\foo\\${file}`, t, `C:\\etc\\foo-ro\\${file}`, marker(ctx, 'hostpath'), evidence);
  if (rt) problems.push(`the two path styles do not show the same host directory: ${rt}`);
  ctx.step('writing through the readOnly mount C:\\etc\\foo-ro: expect "Access is denied."');
  if (!(await writeRefused(ctx, t, `C:\\etc\\foo-ro\\denied-${file}`, 'x', evidence))) problems.push('a write through the readOnly hostPath mount succeeded');
  // Leave the node's C:\etc\foo as it was (best effort).
  await ctx.probe(t, { kind: 'delete-files', paths: [`C:\\etc\\foo\\${file}`, `C:\\etc\\foo\\denied-${file}`] }).catch(() => undefined);
  return problems.length
    ? { works: false, summary: problems.join('; '), evidence, node: r.pod.spec?.nodeName }
    : {
        works: true,
        summary: 'both path styles mount the same host directory; the readOnly mount refuses writes ("Access is denied.")',
        evidence,
        node: r.pod.spec?.nodeName,
      };
}

async function emptyDirProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'emptydir';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const writer = ctx.podTransport(name, 'windows', 'writer');
  const reader = ctx.podTransport(name, 'windows', 'reader');
  const evidence: EvidenceItem[] = [];
  const problems: string[] = [];
  // "/cache" in a Windows container is C:\cache.
  for (const dir of ['C:\\cache', 'C:\\scratch']) {
    const file = `${dir}\\${marker(ctx, 'emptydir')}.txt`;
    ctx.step(`writing ${file} in container writer, reading it in container reader`);
    const rt = await roundTrip(ctx, writer, file, reader, file, marker(ctx, 'emptydir'), evidence);
    if (rt) problems.push(rt);
  }
  return problems.length
    ? { works: false, summary: `the emptyDirs are not shared between the containers: ${problems.join('; ')}`, evidence, node: r.pod.spec?.nodeName }
    : { works: true, summary: 'files written in /cache and C:/scratch by one container are read by the other', evidence, node: r.pod.spec?.nodeName };
}

/** upstream volumes.go writes this line and reads it back through the readOnly mount. */
const VOLUME_TEST = 'windows-volume-test';

async function emptyDirReadOnlyProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'emptydir-readonly';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const ro = ctx.podTransport(name, 'windows', 'test-container');
  const rw = ctx.podTransport(name, 'windows', 'test-container-rw');
  const node = r.pod.spec?.nodeName;
  const evidence: EvidenceItem[] = [];
  const file = `C:\\test-volume\\${marker(ctx, 'volume-test')}.txt`;
  // Control: the read-write mount of the same volume takes the write (upstream ExpectNoError).
  ctx.step(`writing ${file} in test-container-rw (read-write mount) and reading it back there`);
  const rt = await roundTrip(ctx, rw, file, rw, file, VOLUME_TEST, evidence);
  const written = control(!rt, rt ? `the read-write mount did not take the write: ${rt}` : `test-container-rw wrote ${file} and read it back`);
  if (rt) return { works: false, summary: `the read-write mount of the emptyDir is not writable: ${rt}`, evidence, node, control: written };
  const denied = `C:\\test-volume\\denied-${marker(ctx, 'volume-test')}.txt`;
  ctx.step(`writing ${denied} in test-container (readOnly mount): expect "Access is denied."`);
  const refused = await writeRefused(ctx, ro, denied, VOLUME_TEST, evidence);
  ctx.step(`reading ${file} in test-container (readOnly mount)`);
  const rd = await ctx.probe(ro, { kind: 'read-file', path: file });
  evidence.push(rd.evidence);
  const got = rd.evidence.stdout.trim();
  const read = rd.ok && got === VOLUME_TEST;
  const problems = [
    ...(refused ? [] : ['a write through the readOnly mount succeeded']),
    ...(read
      ? []
      : [
          rd.ok ? `the readOnly mount shows "${got.slice(0, 60)}" in ${file}, not "${VOLUME_TEST}"` : `the readOnly mount could not read ${file}: ${rd.detail}`,
        ]),
  ];
  return problems.length
    ? { works: false, summary: problems.join('; '), evidence, node, control: written }
    : {
        works: true,
        summary: `the readOnly mount refused a write ("Access is denied.") and read the file test-container-rw wrote through its read-write mount of the same emptyDir`,
        evidence,
        node,
        control: written,
      };
}

/** Upstream's own Windows e2e mounts both and expects the pod to start and terminate cleanly. */
const SUBPATH_CLEANUP_E2E = 'upstream test/e2e/windows/subpath_cleanup.go';
export const SUBPATH_CLEANUP = cite.e2eTestSince(
  'subpath_cleanup.go',
  '1.37',
  '"Windows subpath cleanup pod with multiple subPath mounts should terminate cleanly"',
);
/** The Windows storage page, which lists the storage functionality not supported on Windows nodes. */
const STORAGE_PAGE = cite.doc('concepts/storage/windows-storage', 'storage functionality not supported on Windows nodes');
/** The Windows mounter: "tmpfs" becomes a plain directory (MountSensitive). */
const MOUNT_UTILS_WINDOWS: Citation = {
  title: 'k8s.io/mount-utils mount_windows.go',
  version: 'v1.33',
  url: 'https://github.com/kubernetes/mount-utils/blob/master/mount_windows.go',
  detail: 'MountSensitive: a tmpfs source is os.MkdirAll of the target',
};
/** The kubelet computes volume stats once a minute (--volume-stats-agg-period): a new pod's may take that long. */
const VOLUME_STATS_DEADLINE_MS = 75_000;

async function emptyDirMemoryProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'emptydir-memory';
  ctx.fixture(name);
  ctx.step(`waiting for pod ${name} to be Ready or to report FailedMount`);
  const s = await readyOrEvent(ctx, name, ['FailedMount']);
  // Refused is not the documented limitation (accepted, on disk): upstream expects the pod to start.
  const refused = `${SUBPATH_CLEANUP_E2E} mounts medium Memory emptyDirs on Windows and expects the pod to start`;
  if (s.kind !== 'ready') return { ...notReadyObservation(name, s, 'the Memory emptyDir was refused'), contradicts: refused };
  const t = ctx.podTransport(name, 'windows');
  const node = s.pod.spec!.nodeName!;
  const evidence: EvidenceItem[] = [describeSettled(name, s)];
  const file = `C:\\mem\\${marker(ctx, 'mem')}.txt`;
  const rt = await roundTrip(ctx, t, file, t, file, marker(ctx, 'mem'), evidence);
  if (rt)
    return {
      works: false,
      summary: `the pod runs but the Memory emptyDir is not usable: ${rt}`,
      evidence,
      node,
      control: await readableFileControl(ctx, t),
      contradicts: refused,
    };
  // Where the volume lives: the kubelet's volume stats give its filesystem's capacity. The node's
  // disk (node.fs, the kubelet's root) means a plain directory; a tmpfs would report its own size.
  ctx.step(`GET /api/v1/nodes/${node}/proxy/stats/summary until volume mem of ${name} shows`);
  const { value: vol, last } = await summaryUntil(ctx, node, Math.min(VOLUME_STATS_DEADLINE_MS, ctx.options.timeouts.podStart), sum =>
    podStatsOf(sum, ctx.namespace, name)?.volume?.find(v => v.name === 'mem' && typeof v.capacityBytes === 'number'),
  );
  const diskBytes = last?.node.fs?.capacityBytes;
  evidence.push(
    `stats/summary of ${node}: volume mem capacityBytes ${vol?.capacityBytes ?? 'absent'}, usedBytes ${vol?.usedBytes ?? 'absent'}; node fs capacityBytes ${diskBytes ?? 'absent'}`,
  );
  if (!vol || diskBytes === undefined)
    throw new Error(
      `the kubelet summary of ${node} lists no capacity for volume mem${diskBytes === undefined ? ' or the node filesystem' : ''}, so the volume's backing cannot be judged`,
    );
  const onDisk = vol.capacityBytes === diskBytes;
  const written = control(true, `${file} was written and read back`);
  return onDisk
    ? {
        works: false,
        summary: `the pod with a medium Memory emptyDir runs and the volume is writable, but it is on the node's disk (capacity ${vol.capacityBytes} bytes, the node filesystem's)`,
        evidence,
        node,
        control: written,
      }
    : {
        works: true,
        summary: `the medium Memory emptyDir is writable and is not on the node's disk (capacity ${vol.capacityBytes} bytes, node filesystem ${diskBytes})`,
        evidence,
        node,
        control: written,
      };
}

async function subPathProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'subpath';
  ctx.fixture(name);
  ctx.step(`waiting for pod ${name} to be Ready`);
  const s = await readyOrEvent(ctx, name, ['FailedMount']);
  if (s.kind !== 'ready') return notReadyObservation(name, s, 'the subPath mount failed');
  const t = ctx.podTransport(name, 'windows');
  const evidence: EvidenceItem[] = [describeSettled(name, s)];
  const file = `${marker(ctx, 'subpath')}.txt`;
  ctx.step(`writing C:\\sub\\${file}, then looking for it in C:\\data\\sub (subPath honoured) and C:\\data (whole volume)`);
  const wr = await ctx.probe(t, { kind: 'write-file', path: `C:\\sub\\${file}`, content: 'x' });
  evidence.push(wr.evidence);
  const inSub = await ctx.probe(t, { kind: 'read-file', path: `C:\\data\\sub\\${file}` });
  evidence.push(inSub.evidence);
  const node = s.pod.spec?.nodeName;
  // Control: the file written through the subPath mount reads back there.
  const back = await ctx.probe(t, { kind: 'read-file', path: `C:\\sub\\${file}` });
  const written = control(
    back.ok,
    back.ok ? `C:\\sub\\${file} was written and reads back` : `C:\\sub\\${file} could not be written and read back: ${back.detail}`,
    [back.evidence],
  );
  if (inSub.ok)
    return { works: true, summary: 'a file written under the subPath mount appears in the volume\'s "sub" directory', evidence, node, control: written };
  const inRoot = await ctx.probe(t, { kind: 'read-file', path: `C:\\data\\${file}` });
  evidence.push(inRoot.evidence);
  return {
    control: written,
    works: false,
    summary: inRoot.ok
      ? 'the subPath mount shows the whole volume (the file landed at the volume root)'
      : `the file written under the subPath mount is in neither C:\\data\\sub nor C:\\data (${wr.detail})`,
    evidence,
    node,
  };
}

async function readOnlyRootFsProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'readonly-rootfs';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const t = ctx.podTransport(name, 'windows');
  const evidence: EvidenceItem[] = [];
  ctx.step('writing C:\\ (the root filesystem) with readOnlyRootFilesystem: true');
  const rootRefused = await writeRefused(ctx, t, `C:\\${marker(ctx, 'rootfs')}.txt`, 'x', evidence);
  ctx.step('writing the readOnly emptyDir C:\\ro-volume (mapped volumes still honour readOnly)');
  const volumeRefused = await writeRefused(ctx, t, `C:\\ro-volume\\${marker(ctx, 'rootfs')}.txt`, 'x', evidence);
  evidence.push(`readOnly volume mount C:\\ro-volume: ${volumeRefused ? 'write refused' : 'write accepted'}`);
  const note = volumeRefused ? '' : '; note: the readOnly volume mount accepted a write too';
  return {
    control: await readableFileControl(ctx, t),
    works: rootRefused,
    summary: rootRefused ? `the root filesystem refused a write${note}` : `the root filesystem accepted a write (readOnlyRootFilesystem ignored)${note}`,
    evidence,
    node: r.pod.spec?.nodeName,
  };
}

async function mountPropagationProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'mount-propagation';
  ctx.fixture(name);
  ctx.step(`waiting for pod ${name} to be Ready`);
  const s = await readyOrEvent(ctx, name, ['FailedMount']);
  if (s.kind !== 'ready') return notReadyObservation(name, s, 'the pod with mountPropagation HostToContainer did not start');
  const nodeName = s.pod.spec?.nodeName;
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  if (!node) throw new Error(`pod ${name} runs on unknown node ${nodeName}`);
  const host = await ctx.nodeTransport(node);
  if (!host)
    return {
      works: false,
      summary: 'no node access',
      evidence: [describeSettled(name, s)],
      node: nodeName,
      notApplicable: `propagation is seen by adding a mount on the node after the container started; no HostProcess or SSH transport to ${node.name} is available`,
    };
  const evidence: EvidenceItem[] = [describeSettled(name, s)];
  const hostDir = `C:\\wincheck\\propagation-${ctx.runId}`;
  const target = `${hostDir}-target`;
  const m = marker(ctx, 'propagation');
  // No quotes inside cmd /c (the joined command line escapes them as \", which cmd keeps).
  // Windows has no shared mounts; a junction added under the hostPath after the container started
  // is the nearest host-side change a propagating mount would carry into the container.
  ctx.step(`on ${node.name}: junction ${hostDir}\\mnt → ${target} holding marker.txt`);
  const made = await ctx.probe(host, { kind: 'make-junction', dir: target, link: `${hostDir}\\mnt`, marker: m });
  evidence.push(made.evidence);
  try {
    if (!made.ok) throw new Error(`could not create the junction on ${node.name}: ${made.detail}`);
    ctx.step('reading C:\\propagation\\mnt\\marker.txt in the container');
    const rd = await ctx.probe(ctx.podTransport(name, 'windows'), { kind: 'read-file', path: 'C:\\propagation\\mnt\\marker.txt' });
    evidence.push(rd.evidence);
    const seen = rd.ok && rd.evidence.stdout.trim() === m;
    const readable = seen
      ? control(true, 'the container read the marker through the junction')
      : await readableFileControl(ctx, ctx.podTransport(name, 'windows'));
    return {
      control: readable,
      works: seen,
      summary: seen
        ? 'a mount added on the node after the container started is visible in the container'
        : 'a mount added on the node after the container started is not visible in the container',
      evidence,
      node: nodeName,
    };
  } finally {
    await ctx.probe(host, { kind: 'remove-junction', dir: target, link: `${hostDir}\\mnt` }).catch(() => undefined);
  }
}

async function pvcProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'pvc';
  ctx.fixture(name);
  ctx.step(`waiting for pod ${name} (claim ${name} on the default StorageClass) to be Ready`);
  const r = await podSettles(ctx, name, 'ready');
  const claim = await ctx.kube.core.readNamespacedPersistentVolumeClaim({ namespace: ctx.namespace, name });
  const evidence: EvidenceItem[] = [
    `pvc ${name}: phase ${claim.status?.phase}, class ${claim.spec?.storageClassName}, volume ${claim.spec?.volumeName ?? 'none'}`,
  ];
  if (!r.ok) {
    const seen = notStarted(name, r.error);
    return { ...seen, evidence: [...evidence, ...seen.evidence] };
  }
  const t = ctx.podTransport(name, 'windows');
  const file = `C:\\data\\${marker(ctx, 'pvc')}.txt`;
  ctx.step(`writing and reading ${file}`);
  const rt = await roundTrip(ctx, t, file, t, file, marker(ctx, 'pvc'), evidence);
  return rt
    ? { works: false, summary: `the claim is mounted but not usable: ${rt}`, evidence, node: r.pod.spec?.nodeName }
    : { works: true, summary: `claim bound to ${claim.spec?.volumeName}; mounted at C:\\data and writable`, evidence, node: r.pod.spec?.nodeName };
}

/** "Hello from NFS!" is the index.html the upstream volume/nfs server image exports (test/images/volume/nfs). */
const NFS_HELLO = /Hello from NFS/i;
const NFS_INDEX = 'index.html';

async function nfsProbe(ctx: CheckContext): Promise<Observation> {
  ctx.fixture('nfs-server');
  ctx.fixture('nfs-client');
  ctx.step('waiting for the Linux NFS server and the Windows client base pod');
  const [server, base] = await Promise.all([readyOrEvent(ctx, 'nfs-server', []), podSettles(ctx, 'nfs-client', 'ready')]);
  if (server.kind !== 'ready')
    return {
      works: false,
      summary: 'no NFS server',
      evidence: [describeSettled('nfs-server', server)],
      notApplicable: `the in-cluster NFS server (privileged Linux pod, e2e volume/nfs image) did not start: ${describeSettled('nfs-server', server)}`,
    };
  if (!base.ok) throw new Error(`the Windows client pod did not start without any NFS volume, so NFS cannot be judged: ${base.error.message}`);
  const ip = server.pod.status?.podIP;
  if (!ip) throw new Error('the NFS server pod is Ready but has no pod IP');
  const name = 'nfs-client-mount';
  ctx.step(`creating pod ${name} mounting nfs ${ip}:/ at C:\\nfs`);
  await createPodLike(ctx, 'nfs-client', name, (pod: V1Pod) => {
    pod.spec!.volumes = [...(pod.spec!.volumes ?? []), { name: 'nfs', nfs: { server: ip, path: '/' } }];
    const c = pod.spec!.containers[0];
    c.volumeMounts = [...(c.volumeMounts ?? []), { name: 'nfs', mountPath: 'C:\\nfs' }];
  });
  const s = await readyOrEvent(ctx, name, ['FailedMount']);
  if (s.kind !== 'ready') return notReadyObservation(name, s, 'the NFS volume was not mounted');
  const t = ctx.podTransport(name, 'windows');
  const evidence: EvidenceItem[] = [describeSettled(name, s)];
  // The export's known file is the positive control: read on the server, it must be read through
  // the mount too. A pod that runs is not enough: older mount-utils skip an NFS mount without
  // options and return success (the pod gets a local folder), so a write and read back there
  // proves nothing about the export.
  ctx.step(`reading the export's ${NFS_INDEX} on the server and through C:\\nfs`);
  const [onServer, hello] = await Promise.all([
    ctx.probe(ctx.podTransport('nfs-server', 'linux'), { kind: 'read-file', path: `/exports/${NFS_INDEX}` }),
    ctx.probe(t, { kind: 'read-file', path: `C:\\nfs\\${NFS_INDEX}` }),
  ]);
  evidence.push(onServer.evidence, hello.evidence);
  const serverHas = onServer.ok && NFS_HELLO.test(onServer.evidence.stdout);
  const known = control(
    serverHas,
    serverHas
      ? `the export holds ${NFS_INDEX} ("Hello from NFS!"), read on the server`
      : `the server's /exports/${NFS_INDEX} could not be read (${onServer.detail})`,
  );
  const fromServer = hello.ok && NFS_HELLO.test(hello.evidence.stdout);
  if (!fromServer)
    return {
      works: false,
      summary: `the pod runs, but C:\\nfs is not the export: the export's ${NFS_INDEX} is not there (a local folder; older kubelets skip an NFS mount without options and report success)`,
      evidence,
      node: s.pod.spec?.nodeName,
      control: known,
    };
  const file = `C:\\nfs\\${marker(ctx, 'nfs')}.txt`;
  const rt = await roundTrip(ctx, t, file, t, file, marker(ctx, 'nfs'), evidence);
  return {
    control: known,
    works: !rt,
    summary: rt
      ? `the export is mounted (its ${NFS_INDEX} is readable) but not usable: ${rt}`
      : `the NFS export is mounted and writable (its ${NFS_INDEX} is readable through C:\\nfs)`,
    evidence,
    node: s.pod.spec?.nodeName,
  };
}

async function blockProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'block-volume';
  ctx.fixture(name);
  ctx.step(`waiting for pod ${name} (raw block claim) to be Ready or to report a mapping failure`);
  const s = await readyOrEvent(ctx, name, ['FailedMapVolume', 'FailedMount']);
  if (s.kind !== 'ready') return notReadyObservation(name, s, 'the raw block volume was not handed to the container');
  return {
    works: true,
    summary: 'a pod with a volumeMode: Block claim as a device runs',
    evidence: [describeSettled(name, s)],
    node: s.pod.spec?.nodeName,
    control: podStarted(s.pod, 'with the Block claim bound'),
  };
}

const UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

/** "2Gi" → bytes (the storage quantities a claim uses). */
export function storageBytes(q: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([kMGT]i?)?$/.exec(q ?? '');
  return m ? Number(m[1]) * (UNITS[m[2] ?? ''] ?? NaN) : undefined;
}

/** Controller plus node expansion of a CSI volume; capped by the pod-start deadline. */
const RESIZE_WAIT_MS = 3 * 60_000;
const RESIZED = '2Gi';

async function resizeProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'pvc-resize';
  ctx.fixture(name);
  ctx.step(`waiting for pod ${name} to be Ready`);
  const r = await podSettles(ctx, name, 'ready');
  if (!r.ok) throw meansOfStart(name, r.error) ?? new Error(`the pod using claim ${name} did not start, so resizing cannot be judged: ${r.error.message}`);
  const node = r.pod.spec?.nodeName;
  const evidence: EvidenceItem[] = [];
  let claim = await ctx.kube.core.readNamespacedPersistentVolumeClaim({ namespace: ctx.namespace, name });
  const className = claim.spec?.storageClassName;
  if (className) {
    const sc = await ctx.kube.storage.readStorageClass({ name: className });
    evidence.push(`storageclass ${className}: allowVolumeExpansion ${sc.allowVolumeExpansion ?? false}`);
    if (!sc.allowVolumeExpansion)
      return { works: false, summary: 'expansion not allowed', evidence, node, notApplicable: `StorageClass ${className} does not allow volume expansion` };
  }
  const mounted = control(
    claim.status?.phase === 'Bound',
    `claim ${name} is ${claim.status?.phase ?? 'not bound'} and mounted in Ready pod ${name}; the API accepted the new size`,
  );
  ctx.step(`expanding claim ${name} from ${claim.status?.capacity?.storage ?? '?'} to ${RESIZED} while mounted`);
  for (let attempt = 0; ; attempt++) {
    claim.spec!.resources = { ...claim.spec!.resources, requests: { ...claim.spec!.resources?.requests, storage: RESIZED } };
    try {
      await ctx.kube.core.replaceNamespacedPersistentVolumeClaim({ namespace: ctx.namespace, name, body: claim });
      break;
    } catch (e) {
      if (apiStatusCode(e) !== 409 || attempt >= 3) throw new Error(`failed to expand claim ${name}`, { cause: e });
      claim = await ctx.kube.core.readNamespacedPersistentVolumeClaim({ namespace: ctx.namespace, name });
    }
  }
  const want = storageBytes(RESIZED)!;
  const timeoutMs = Math.min(RESIZE_WAIT_MS, ctx.options.timeouts.podStart);
  const failedEvent = watchUntil<CoreV1Event, string>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ctx.namespace}/events`,
    fieldSelector: `involvedObject.name=${name}`,
    list: () => listAll(q => ctx.kube.core.listNamespacedEvent({ namespace: ctx.namespace, fieldSelector: `involvedObject.name=${name}`, ...q })),
    check: ev => (/ResizeFailed|ExpansionFailed/.test(ev.reason ?? '') ? `${ev.reason}: ${ev.message}` : undefined),
    what: `a resize failure event for ${name}`,
    describe: () => 'none',
    timeoutMs: timeoutMs + 1_000,
    signal: ctx.signal,
  });
  failedEvent.catch(() => undefined);
  try {
    const grown = await Promise.race([
      watchUntil<V1PersistentVolumeClaim, V1PersistentVolumeClaim>({
        kube: ctx.kube,
        path: `/api/v1/namespaces/${ctx.namespace}/persistentvolumeclaims`,
        fieldSelector: `metadata.name=${name}`,
        list: () => listAll(q => ctx.kube.core.listNamespacedPersistentVolumeClaim({ namespace: ctx.namespace, fieldSelector: `metadata.name=${name}`, ...q })),
        check: c => ((storageBytes(c.status?.capacity?.storage) ?? 0) >= want ? c : undefined),
        what: `claim ${ctx.namespace}/${name} to reach ${RESIZED}`,
        describe: c =>
          c
            ? `capacity ${c.status?.capacity?.storage}, conditions ${(c.status?.conditions ?? []).map(x => `${x.type}=${x.status}`).join(',') || 'none'}`
            : 'claim not seen',
        timeoutMs,
        signal: ctx.signal,
      }),
      failedEvent.then(text => {
        throw new WaitTimeoutError(`resize failed: ${text}`);
      }),
    ]);
    evidence.push(`pvc ${name}: capacity ${grown.status?.capacity?.storage}`);
    return { works: true, summary: `the mounted claim grew to ${grown.status?.capacity?.storage}`, evidence, node, control: mounted };
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    evidence.push(e.message);
    return { works: false, summary: `the mounted claim did not grow to ${RESIZED}: ${e.message}`, evidence, node, control: mounted };
  }
}

const defaultClassOr = (c: ClusterInfo, then: () => Expectation): Expectation =>
  c.defaultStorageClass ? then() : notApplicable('the cluster has no default StorageClass', [cite.intro()]);

export const features: Feature[] = [
  {
    id: 'stor.hostpath',
    area: 'storage',
    title: 'hostPath volumes: C:\\etc\\foo and C:/etc/foo path styles, readOnly honoured',
    needs: ['windows-node'],
    fixtures: [{ id: 'hostpath', template: 'hostpath-styles', os: 'windows' }],
    expect: () =>
      supported(
        'hostPath volumes work with escaped backslashes or forward slashes; readOnly mounts refuse writes ("Access is denied.")',
        sources(cite.v19Guide('hostpath-volume-pod'), cite.e2eTest('volumes.go')),
      ),
    probe: hostPathProbe,
  },
  {
    id: 'stor.emptydir',
    area: 'storage',
    title: 'emptyDir volumes: /cache and C:/scratch shared across two containers',
    needs: ['windows-node'],
    fixtures: [{ id: 'emptydir', template: 'emptydir', os: 'windows' }],
    expect: () =>
      supported('emptyDir volumes are supported on Windows and shared by the containers of a pod', sources(cite.v19Guide('emptydir-pod'), cite.intro())),
    probe: emptyDirProbe,
  },
  {
    id: 'stor.emptydir-readonly',
    area: 'storage',
    title: 'emptyDir mounted readOnly in one container, read-write in another: writes refused, reads work',
    needs: ['windows-node'],
    fixtures: [{ id: 'emptydir-readonly', template: 'emptydir-readonly', os: 'windows' }],
    expect: () =>
      supported(
        'a readOnly mount of an emptyDir refuses writes ("Access is denied.") and reads what another container writes through its read-write mount of the same volume',
        sources(
          cite.e2eTest('volumes.go', '"Windows volume mounts check volume mount permissions container should have readOnly permissions on emptyDir"'),
          STORAGE_DOCS,
        ),
      ),
    probe: emptyDirReadOnlyProbe,
  },
  {
    id: 'stor.emptydir-memory',
    area: 'storage',
    title: "emptyDir with medium: Memory (accepted, backed by the node's disk)",
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures: [{ id: 'emptydir-memory', template: 'emptydir-memory', os: 'windows' }],
    // Every version: the Windows mounter has made a plain directory for "tmpfs" since the first
    // Windows kubelet, so the medium is accepted and ignored. Refusing the mount is not this limitation.
    expect: () =>
      limited(
        "a medium Memory emptyDir is accepted on Windows but is a directory on the node's disk: the Windows mounter makes a plain directory for tmpfs; a refused mount would be a regression",
        sources(STORAGE_PAGE, MOUNT_UTILS_WINDOWS, SUBPATH_CLEANUP),
      ),
    probe: emptyDirMemoryProbe,
  },
  {
    id: 'stor.subpath',
    area: 'storage',
    title: 'subPath volume mounts',
    needs: ['windows-node'],
    fixtures: [{ id: 'subpath', template: 'subpath', os: 'windows' }],
    // The storage page's "only the entire volume can be mounted" predates the kubelet's Windows
    // subPath support; upstream's own Windows e2e mounts subPaths and expects them to work.
    expect: c =>
      supported(
        `the kubelet mounts subPaths on Windows (pkg/volume/util/subpath/subpath_windows.go), as upstream's Windows e2e expects${
          k8sAtLeast(c.version, ...SUBPATH_HANDLE_LEAK_FIXED)
            ? ''
            : `; before v${SUBPATH_HANDLE_LEAK_FIXED.join('.')} several subPaths in one container leave the deleted pod Terminating (https://github.com/kubernetes/kubernetes/issues/112630): stor.subpath-cleanup observes that, this single-subPath check does not hit it`
        }`,
        sources(SUBPATH_CLEANUP, cite.k8s('pkg/volume/util/subpath/subpath_windows.go'), SUBPATH_HANDLE_LEAK_SOURCE),
      ),
    probe: subPathProbe,
  },
  {
    id: 'stor.readonly-rootfs',
    area: 'storage',
    title: 'readOnlyRootFilesystem on a Windows container',
    needs: ['windows-node'],
    fixtures: [{ id: 'readonly-rootfs', template: 'readonly-rootfs', os: 'windows' }],
    expect: () => limited('readOnlyRootFilesystem is not supported on Windows (mapped volumes still honour readOnly)', STORAGE_DOCS),
    probe: readOnlyRootFsProbe,
  },
  {
    id: 'stor.mount-propagation',
    area: 'storage',
    title: 'mountPropagation HostToContainer',
    needs: ['windows-node', 'node-access'],
    // Pinned to the target node: node access must not follow the scheduler's pick.
    fixtures: [{ id: 'mount-propagation', template: 'mount-propagation', os: 'windows', pin: 'node' }],
    expect: () => limited('Windows does not support mount propagation', sources(cite.v19Guide('known limitations'), cite.intro())),
    probe: mountPropagationProbe,
  },
  {
    id: 'stor.pvc',
    area: 'storage',
    title: 'PVC from the default StorageClass binds and mounts on Windows',
    needs: ['windows-node', 'default-storageclass'],
    subject: ['volume-binding'],
    fixtures: [{ id: 'pvc', template: 'pvc', os: 'windows' }],
    expect: c =>
      defaultClassOr(c, () =>
        supported(
          `claims on the default StorageClass ${c.defaultStorageClass} bind and mount on Windows (CSI through csi-proxy)`,
          sources(cite.v122Intro(), cite.intro()),
        ),
      ),
    probe: pvcProbe,
  },
  {
    id: 'stor.nfs',
    area: 'storage',
    title: 'NFS volumes on Windows',
    needs: ['windows-node', 'linux-node'],
    fixtures: [
      { id: 'nfs-server', template: 'nfs-server', os: 'linux' },
      { id: 'nfs-client', template: 'windows-pause', os: 'windows', params: { selectorKey: 'kubernetes.io/os' } },
    ],
    expect: () => limited('NFS volumes are not supported on Windows nodes', STORAGE_DOCS),
    probe: nfsProbe,
  },
  {
    id: 'stor.block',
    area: 'storage',
    title: 'Raw block volumes (volumeMode: Block)',
    needs: ['windows-node', 'default-storageclass'],
    fixtures: [{ id: 'block-volume', template: 'block-volume', os: 'windows' }],
    expect: c => defaultClassOr(c, () => limited('raw block volumes are not supported on Windows nodes', STORAGE_DOCS)),
    probe: blockProbe,
  },
  {
    id: 'stor.resize',
    area: 'storage',
    title: 'Expanding a mounted volume',
    access: [...permissions('', 'persistentvolumeclaims', ['update'], 'namespace'), ...permissions('storage.k8s.io', 'storageclasses', ['get'], 'cluster')],
    needs: ['windows-node', 'default-storageclass'],
    fixtures: [{ id: 'pvc-resize', template: 'pvc', os: 'windows' }],
    expect: c => defaultClassOr(c, () => limited('expanding a mounted volume is not supported on Windows nodes', STORAGE_DOCS)),
    probe: resizeProbe,
  },
];
