// sim-memory: what the simulated cluster costs per node and per pod, so its memory stays bounded
// as profiles grow (issue 19: `big` held 595 MB). Four shapes of the default profile, each in its
// own process with a fresh sim, settled (every node and pod Ready), then the heap after a full GC:
//
//   base       the default profile
//   +linux     base and a pool of LINUX_NODES Linux nodes
//   +windows   base and a pool of WINDOWS_NODES Windows nodes (runtime, SSH server, network twin)
//   +pods      +linux with PODS_PER_NODE background pods on each of its nodes (no container behind them)
//
// The cost of one unit is the heap difference divided by the units added; each is compared with
// its goal, and the ratio is the worst cost over its goal (must stay below 1). Heap after GC, not
// RSS: it does not move with the machine's load or the allocator's caching.
//
//   npx tsx bench/sim-memory.ts

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorText, loadAverage, report, simSettled, startSimRetrying } from './support.ts';

const NAME = 'sim-memory';
const LINUX_NODES = 200;
const WINDOWS_NODES = 40;
const PODS_PER_NODE = 25;
/** Goals per unit, in KB of heap after GC: a node with its DaemonSet pods (kube-proxy, the CNI agent), a background pod alone. */
const GOAL_KB = { linuxNode: 256, windowsNode: 512, backgroundPod: 8 };
const CHILD_LINE = 'SIM_MEMORY ';

const out = (l: string) => process.stdout.write(l + '\n');

interface Shape {
  name: string;
  yaml: string;
}

const LINUX_TEMPLATE = '{ os: linux, containerRuntime: containerd://1.7.22, capacity: { cpu: "4", memory: 16Gi, pods: "110" } }';
const WINDOWS_TEMPLATE =
  '{ os: windows, windowsBuild: 10.0.20348.2582, containerRuntime: containerd://1.7.22, capacity: { cpu: "8", memory: 32Gi, pods: "110" }, ssh: true, taints: [{ key: os, value: windows, effect: NoSchedule }] }';

function shapes(): Shape[] {
  const head = (name: string) => `name: mem-${name}\nbase: default\n`;
  const pool = (name: string, count: number, template: string) => `  - { name: ${name}, count: ${count}, template: ${template} }\n`;
  return [
    { name: 'base', yaml: head('base') },
    { name: '+linux', yaml: head('linux') + 'nodePools:\n' + pool('lin', LINUX_NODES, LINUX_TEMPLATE) },
    { name: '+windows', yaml: head('windows') + 'nodePools:\n' + pool('win', WINDOWS_NODES, WINDOWS_TEMPLATE) },
    {
      name: '+pods',
      yaml:
        head('pods') +
        'nodePools:\n' +
        pool('lin', LINUX_NODES, LINUX_TEMPLATE) +
        `background: { namespaces: 20, podsPerNode: ${PODS_PER_NODE}, requests: { cpu: 10m, memory: 16Mi } }\n`,
    },
  ];
}

interface Measured {
  heapKB: number;
  rssKB: number;
  nodes: number;
  pods: number;
}

/** In the child: start the sim on the profile file, let it settle, and print its heap after GC. */
async function child(profileFile: string): Promise<void> {
  const sim = await startSimRetrying(profileFile, out);
  try {
    await simSettled(sim, 5 * 60_000);
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error('run with --expose-gc');
    gc();
    gc();
    const m = process.memoryUsage();
    const measured: Measured = {
      heapKB: Math.round((m.heapUsed + m.external + m.arrayBuffers) / 1024),
      rssKB: Math.round(m.rss / 1024),
      nodes: sim.store.list('nodes').items.length,
      pods: sim.store.list('pods').items.length,
    };
    out(CHILD_LINE + JSON.stringify(measured));
  } finally {
    await sim.stop();
    sim.cleanupDir();
  }
}

function measure(shape: Shape, dir: string): Promise<Measured> {
  const file = join(dir, `${shape.name.replace(/\W/g, '')}.yaml`);
  writeFileSync(file, shape.yaml);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), '--child', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    p.once('exit', code => {
      const line = stdout.split('\n').find(l => l.startsWith(CHILD_LINE));
      if (line) resolve(JSON.parse(line.slice(CHILD_LINE.length)) as Measured);
      else reject(new Error(`${shape.name}: the sim child exited ${code}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  out(`${NAME}: heap after GC of a settled sim, per Linux node, Windows node and background pod (load ${loadAverage()})`);
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-sim-memory-'));
  const m: Record<string, Measured> = {};
  try {
    for (const s of shapes()) {
      m[s.name] = await measure(s, dir);
      out(
        `  ${s.name.padEnd(9)} ${m[s.name].nodes} nodes, ${m[s.name].pods} pods: heap ${(m[s.name].heapKB / 1024).toFixed(1)} MB, RSS ${(m[s.name].rssKB / 1024).toFixed(1)} MB`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const per = (a: Measured, b: Measured, units: number) => (a.heapKB - b.heapKB) / units;
  const cost = {
    linuxNode: per(m['+linux'], m.base, m['+linux'].nodes - m.base.nodes),
    windowsNode: per(m['+windows'], m.base, m['+windows'].nodes - m.base.nodes),
    backgroundPod: per(m['+pods'], m['+linux'], m['+pods'].pods - m['+linux'].pods),
  };
  for (const k of Object.keys(cost) as (keyof typeof cost)[]) out(`  per ${k}: ${cost[k].toFixed(1)} KB (goal <= ${GOAL_KB[k]} KB)`);
  const worst = Math.max(...(Object.keys(cost) as (keyof typeof cost)[]).map(k => cost[k] / GOAL_KB[k]));
  await report(
    {
      name: NAME,
      ratioOf: 'worst per-unit heap / its goal',
      ratio: worst,
      threshold: 1,
      measurements: {
        linuxNodeKB: Math.round(cost.linuxNode),
        windowsNodeKB: Math.round(cost.windowsNode),
        backgroundPodKB: Math.round(cost.backgroundPod * 10) / 10,
      },
      repeats: 1,
      notes: [`base heap ${(m.base.heapKB / 1024).toFixed(1)} MB`],
    },
    started,
  );
}

const i = process.argv.indexOf('--child');
(i >= 0 ? child(process.argv[i + 1]) : main()).catch(e => {
  out(`${NAME}: failed: ${errorText(e)}`);
  process.exitCode = 1;
});
