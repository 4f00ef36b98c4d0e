// Configuration (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Configuration"): Secrets and ConfigMaps as volumes, defaultMode,
// and where Secret volume contents land on the node. Env vars are in config.ts.

import { fileMatches } from '../kit/fileCompare.ts';
import { limited, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { cite, sources } from '../../facts/sources.ts';

/** Where the kubelet (default --root-dir) keeps a pod's Secret volume on a Windows node. */
export function secretVolumeDirOnNode(podUid: string, volume: string): string {
  return `C:\\var\\lib\\kubelet\\pods\\${podUid}\\volumes\\kubernetes.io~secret\\${volume}`;
}

async function secretVolumeProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'secret-volume';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const t = ctx.podTransport(name, 'windows');
  const results = [];
  for (const key of ['username', 'password'] as const) {
    ctx.step(`comparing C:\\etc\\secret-volume\\${key} with the Secret's value (not recorded)`);
    results.push(await fileMatches(ctx, t, `C:\\etc\\secret-volume\\${key}`, ctx.secrets[key]));
  }
  const bad = results.filter(x => !x.ok);
  return {
    works: bad.length === 0,
    summary: bad.length ? bad.map(b => b.detail).join('; ') : "username and password files have the Secret's values",
    evidence: results.map(x => x.evidence),
    node: r.pod.spec?.nodeName,
  };
}

async function configMapVolumeProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'configmap-volume';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const t = ctx.podTransport(name, 'windows');
  const problems: string[] = [];
  const evidence: EvidenceItem[] = [];
  // cmd reads "/" as a switch: paths for `type` use backslashes.
  for (const [key, value] of [
    ['example.property.1', 'hello'],
    ['example.property.2', 'world'],
  ]) {
    const res = await ctx.probe(t, { kind: 'read-file', path: `C:\\etc\\config\\${key}` });
    evidence.push(res.evidence);
    const content = res.evidence.stdout.replace(/\r?\n$/, '');
    if (!res.ok) problems.push(res.detail);
    else if (content !== value) problems.push(`${key} contains "${content.slice(0, 50)}", expected "${value}"`);
  }
  return {
    works: problems.length === 0,
    summary: problems.length ? problems.join('; ') : 'each ConfigMap key is a file with its value',
    evidence,
    node: r.pod.spec?.nodeName,
  };
}

/** `ls -l` (busybox) output → the mode column of the entry named `file`. */
export function modeOf(lsOutput: string, file: string): string | undefined {
  for (const line of lsOutput.split(/\r?\n/)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 3 && /^[-lbcdps][-rwxsStT]{9}$/.test(cols[0]) && (cols[cols.length - 1] === file || cols.slice(-3).join(' ').startsWith(`${file} ->`)))
      return cols[0];
  }
  return undefined;
}

const WANTED_MODE = '-r--r-----'; // defaultMode 0440 (see fixtures/secret-defaultmode.yaml)

async function secretDefaultModeProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'secret-defaultmode';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  // busybox ls (C:\bin in the e2e images) shows the mode Go-style; -L follows the kubelet's
  // ..data symlinks to the files themselves.
  ctx.step('ls -lL C:/etc/secret-mode');
  const res = await ctx.probe(ctx.podTransport(name, 'windows'), { kind: 'file-modes', path: 'C:/etc/secret-mode' });
  const mode = modeOf(res.evidence.stdout, 'data');
  if (!res.ok || !mode)
    throw new Error(`could not read the mode of C:/etc/secret-mode/data: ${res.detail}; stdout ${JSON.stringify(res.evidence.stdout.slice(0, 200))}`);
  // Control: the mode was read from a listing of the mounted file itself.
  return {
    control: control(true, `ls -lL listed C:/etc/secret-mode/data with mode ${mode}`),
    works: mode === WANTED_MODE,
    summary:
      mode === WANTED_MODE
        ? `the Secret file has mode ${mode} (defaultMode 0440 honoured)`
        : `the Secret file shows mode ${mode}, not ${WANTED_MODE} (defaultMode 0440 not honoured)`,
    evidence: [res.evidence],
    node: r.pod.spec?.nodeName,
  };
}

async function secretAtRestProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'secret-volume';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const nodeName = r.pod.spec?.nodeName;
  const uid = r.pod.metadata?.uid;
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  if (!node || !uid) throw new Error(`pod ${name} is Ready but its node (${nodeName}) or uid is unknown`);
  const t = await ctx.nodeTransport(node);
  if (!t)
    return {
      works: false,
      summary: 'no node access',
      evidence: [],
      node: nodeName,
      notApplicable: `no HostProcess or SSH transport to node ${node.name} is available`,
    };
  const evidence: EvidenceItem[] = [];
  const podDir = `C:\\var\\lib\\kubelet\\pods\\${uid}`;
  ctx.step(`looking for the pod directory ${podDir} on ${node.name}`);
  // No quotes inside cmd /c: the argv is joined into one command line with \" escapes, which cmd
  // does not undo (docs/windows-commands.md §0). These paths have no spaces.
  const dir = await ctx.probe(t, { kind: 'list-dir', path: podDir });
  evidence.push(dir.evidence);
  if (!dir.ok)
    return {
      works: false,
      summary: `no ${podDir} on the node`,
      evidence,
      node: nodeName,
      notApplicable: `the kubelet's pod directory ${podDir} is not on ${node.name} (a --root-dir other than C:\\var\\lib\\kubelet?)`,
    };
  const volumeDir = secretVolumeDirOnNode(uid, 'secret');
  const file = `${volumeDir}\\password`;
  // Control: the node lists the Secret volume's directory among the pod's secret volumes, so the
  // probe looks where the kubelet keeps it. A file listed there but unreadable shows nothing.
  const pluginDir = volumeDir.slice(0, volumeDir.lastIndexOf('\\'));
  ctx.step(`listing ${pluginDir} and ${volumeDir} on ${node.name}`);
  const plugin = await ctx.probe(t, { kind: 'list-dir', path: pluginDir });
  const listed = await ctx.probe(t, { kind: 'list-dir', path: volumeDir });
  evidence.push(plugin.evidence, listed.evidence);
  const linesOf = (out: string) =>
    out
      .split(/\r?\n/)
      .map(l => l.trim())
      .filter(l => l && !/^File Not Found$/i.test(l));
  const names = listed.evidence.exitCode === 0 ? linesOf(listed.evidence.stdout) : [];
  if (!linesOf(plugin.evidence.stdout).includes('secret'))
    return {
      works: false,
      summary: `${volumeDir} is not on ${node.name}'s disk`,
      evidence,
      node: nodeName,
      control: control(false, `${pluginDir} does not list the volume "secret" on ${node.name} (exit ${plugin.evidence.exitCode})`),
    };
  // And the container itself reads the value from its mount: the Secret was handed over, so a
  // file missing from the node's disk is about where it is kept, not about a volume that failed.
  const inPod = await fileMatches(ctx, ctx.podTransport(name, 'windows'), 'C:\\etc\\secret-volume\\password', ctx.secrets.password);
  evidence.push(inPod.evidence);
  const dirListed = inPod.ok
    ? control(
        true,
        `the container reads the Secret's value from its mount; ${volumeDir} is listed on ${node.name} (${names.length} entr${names.length === 1 ? 'y' : 'ies'} on disk)`,
      )
    : control(false, `the container does not read the Secret's value from its own mount (${inPod.detail}), so the node's disk says nothing`);
  if (!names.includes('password'))
    return {
      works: true,
      summary: `the Secret volume's directory on ${node.name}'s disk holds no password file: its contents are not at rest on the disk`,
      evidence,
      node: nodeName,
      control: dirListed,
    };
  ctx.step(`comparing ${file} on ${node.name} with the Secret's value (not recorded)`);
  const res = await fileMatches(ctx, t, file, ctx.secrets.password);
  evidence.push(res.evidence);
  const readable = res.evidence.exitCode === 0;
  return {
    control: readable ? dirListed : control(false, `${file} is listed on ${node.name} but could not be read: ${res.detail}`),
    works: !res.ok,
    summary: res.ok
      ? `the Secret's value is in plaintext on ${node.name}'s disk at ${file}`
      : `the Secret's value is not in plaintext on ${node.name}'s disk (${res.detail})`,
    evidence,
    node: nodeName,
  };
}

export const features: Feature[] = [
  {
    id: 'cfg.secret-volume',
    area: 'config',
    title: 'Secret mounted as a volume: files readable with the right values',
    needs: ['windows-node'],
    // Pinned to the target node (cfg.secret-at-rest reads the node's disk under it, and the two
    // share the fixture): on mixed runtimes node access must not follow the scheduler's pick.
    fixtures: [{ id: 'secret-volume', template: 'secret-volume', os: 'windows', pin: 'node' }],
    expect: () =>
      supported(
        'Secret volumes are supported on Windows (the v1.9 docs listed them as a limitation)',
        sources(cite.intro(), cite.v19Guide('v1.9 limitation, since lifted')),
      ),
    probe: secretVolumeProbe,
  },
  {
    id: 'cfg.configmap-volume',
    area: 'config',
    title: 'ConfigMap mounted as a volume',
    needs: ['windows-node'],
    fixtures: [{ id: 'configmap-volume', template: 'configmap-volume', os: 'windows' }],
    expect: () =>
      supported(
        'ConfigMap volumes are supported on Windows (the v1.9 docs listed them as a limitation)',
        sources(cite.intro(), cite.v19Guide('v1.9 limitation, since lifted')),
      ),
    probe: configMapVolumeProbe,
  },
  {
    id: 'cfg.secret-defaultmode',
    area: 'config',
    title: 'Secret volume defaultMode permissions honoured',
    needs: ['windows-node'],
    fixtures: [{ id: 'secret-defaultmode', template: 'secret-defaultmode', os: 'windows' }],
    expect: () =>
      limited('file modes are UID/GID based and Windows has no POSIX permissions: defaultMode is not honoured', sources(cite.intro(), cite.intro('storage'))),
    probe: secretDefaultModeProbe,
  },
  {
    id: 'cfg.secret-at-rest',
    area: 'config',
    title: "Secret volume contents land in plaintext on the node's disk",
    needs: ['windows-node', 'node-access'],
    // Pinned to the target node (cfg.secret-at-rest reads the node's disk under it, and the two
    // share the fixture): on mixed runtimes node access must not follow the scheduler's pick.
    fixtures: [{ id: 'secret-volume', template: 'secret-volume', os: 'windows', pin: 'node' }],
    expect: () =>
      limited(
        "on Windows, Secret volume data is written in clear text to the node's disk (no tmpfs); protect it with file ACLs or BitLocker",
        sources(cite.v122Intro(), cite.intro()),
      ),
    probe: secretAtRestProbe,
  },
];
