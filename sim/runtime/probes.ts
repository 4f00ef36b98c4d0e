// Startup, readiness and liveness probes, evaluated periodically as the kubelet
// does: httpGet and tcpSocket from the node's address to the pod, exec through the
// interpreter inside the container. Thresholds and periods as written in the spec.

import http from 'node:http';
import { Writable } from 'node:stream';
import type { V1Probe } from '@kubernetes/client-node';
import type { ContainerRunner } from './container.ts';
import type { PodWorker } from './podWorker.ts';

const FIRST_PROBE_MS = 300;
const NO_PROBE_SETTLE_MS = 50;

export interface ProbeResult {
  ok: boolean;
  message: string;
}

function portOf(c: ContainerRunner, port: number | string | undefined): number {
  if (typeof port === 'number') return port;
  const named = c.spec.ports?.find(p => p.name === port);
  return named?.containerPort ?? Number(port);
}

async function httpGet(w: PodWorker, c: ContainerRunner, p: V1Probe, timeoutMs: number): Promise<ProbeResult> {
  const g = p.httpGet!;
  const port = portOf(c, g.port as number | string);
  const host = g.host ?? w.podAddress();
  const url = `${(g.scheme ?? 'HTTP').toLowerCase()}://${host}:${port}${g.path ?? '/'}`;
  try {
    const sock = await w.ctx.network.connect({ from: w.nodeEndpoint(), host, port, timeoutMs });
    return await new Promise<ProbeResult>(resolve => {
      const headers: Record<string, string> = { 'User-Agent': `kube-probe/${w.ctx.profile.kubernetesVersion.replace(/^v(\d+\.\d+).*/, '$1')}` };
      for (const h of g.httpHeaders ?? []) headers[h.name] = h.value;
      const req = http.request({ createConnection: () => sock, path: g.path ?? '/', headers, host, port, timeout: timeoutMs }, res => {
        res.resume();
        const code = res.statusCode ?? 0;
        resolve(code >= 200 && code < 400 ? { ok: true, message: '' } : { ok: false, message: `HTTP probe failed with statuscode: ${code}` });
        sock.destroy();
      });
      req.on('timeout', () => {
        req.destroy();
        resolve({ ok: false, message: `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
      });
      req.on('error', e => resolve({ ok: false, message: `Get "${url}": ${e.message}` }));
      req.end();
    });
  } catch (e) {
    return {
      ok: false,
      message: `Get "${url}": dial tcp ${host}:${port}: connect: connection refused${e instanceof Error && /timed? ?out/i.test(e.message) ? ' (timeout)' : ''}`,
    };
  }
}

async function tcp(w: PodWorker, c: ContainerRunner, p: V1Probe, timeoutMs: number): Promise<ProbeResult> {
  const port = portOf(c, (p.tcpSocket?.port ?? p.grpc?.port) as number | string);
  const host = p.tcpSocket?.host ?? w.podAddress();
  try {
    const s = await w.ctx.network.connect({ from: w.nodeEndpoint(), host, port, timeoutMs });
    s.destroy();
    return { ok: true, message: '' };
  } catch {
    return { ok: false, message: `dial tcp ${host}:${port}: connect: connection refused` };
  }
}

async function exec(w: PodWorker, c: ContainerRunner, p: V1Probe, timeoutMs: number): Promise<ProbeResult> {
  if (!c.host) return { ok: false, message: 'container not running' };
  const run = await w.ctx.runCommand();
  let out = '';
  const sink = new Writable({
    write: (b: Buffer, _e, cb) => {
      out += b.toString();
      cb();
    },
  });
  const ac = new AbortController();
  const t = setTimeout(() => ac.abort(), timeoutMs);
  try {
    const code = await run(p.exec?.command ?? [], c.host, { stdin: null, stdout: sink, stderr: sink, signal: ac.signal });
    if (ac.signal.aborted) return { ok: false, message: `command timed out after ${timeoutMs / 1000}s` };
    return code === 0 ? { ok: true, message: '' } : { ok: false, message: out.trim() || `command terminated with exit code ${code}` };
  } finally {
    clearTimeout(t);
  }
}

export function runProbe(w: PodWorker, c: ContainerRunner, p: V1Probe): Promise<ProbeResult> {
  const timeoutMs = (p.timeoutSeconds ?? 1) * 1000;
  if (p.httpGet) return httpGet(w, c, p, timeoutMs);
  if (p.tcpSocket || p.grpc) return tcp(w, c, p, timeoutMs);
  if (p.exec) return exec(w, c, p, timeoutMs);
  return Promise.resolve({ ok: true, message: '' });
}

/**
 * Runs a container's probes until the instance stops (signal). Readiness sets
 * c.ready; a failed liveness (or startup) probe kills the instance for a restart.
 */
export async function watchProbes(w: PodWorker, c: ContainerRunner, signal: AbortSignal): Promise<void> {
  const scale = w.ctx.opts.probePeriodScale ?? 1;
  const { startupProbe, readinessProbe, livenessProbe } = c.spec;
  c.ready = false;
  c.startupPassed = !startupProbe;
  if (!readinessProbe && !startupProbe) {
    // No probes: ready once started; a short settle lets the process bind its ports first.
    if (!(await w.ctx.sleep(NO_PROBE_SETTLE_MS, signal))) return;
    c.ready = true;
    w.writeStatus();
  }
  const loop = async (p: V1Probe, kind: 'Startup' | 'Readiness' | 'Liveness') => {
    // A short settle time lets the container's servers bind before the first probe.
    if (!(await w.ctx.sleep((p.initialDelaySeconds ?? 0) * 1000 * scale + FIRST_PROBE_MS, signal))) return;
    let successes = 0,
      failures = 0,
      everOk = false;
    for (;;) {
      if (kind !== 'Startup' && !c.startupPassed) {
        if (!(await w.ctx.sleep(100, signal))) return;
        continue;
      }
      const r = await runProbe(w, c, p);
      if (signal.aborted) return;
      if (r.ok) {
        successes++;
        failures = 0;
        everOk = true;
      } else {
        failures++;
        successes = 0;
      }
      if (kind === 'Readiness') {
        const ready = r.ok ? successes >= (p.successThreshold ?? 1) || c.ready : failures < (p.failureThreshold ?? 3) && c.ready;
        if (!r.ok) c.event('Warning', 'Unhealthy', `Readiness probe failed: ${r.message}`);
        if (ready !== c.ready) {
          c.ready = ready;
          w.writeStatus();
        }
      } else if (!r.ok) {
        c.event('Warning', 'Unhealthy', `${kind} probe failed: ${r.message}`);
        if (failures >= (p.failureThreshold ?? 3)) {
          c.event('Normal', 'Killing', `Container ${c.name} failed ${kind.toLowerCase()} probe, will be restarted`);
          c.kill({ reason: 'Error', exitCode: 137 });
          return;
        }
      } else if (kind === 'Startup') {
        c.startupPassed = true;
        if (!readinessProbe) {
          c.ready = true;
          w.writeStatus();
        }
        return;
      }
      // Until the first success, readiness/startup retry within a second (a sim speed-up).
      const period = (p.periodSeconds ?? 10) * 1000 * scale;
      if (!(await w.ctx.sleep(!everOk && kind !== 'Liveness' ? Math.min(period, 1000) : period, signal))) return;
    }
  };
  await Promise.all([
    startupProbe && loop(startupProbe, 'Startup'),
    readinessProbe && loop(readinessProbe, 'Readiness'),
    livenessProbe && loop(livenessProbe, 'Liveness'),
  ]);
}
