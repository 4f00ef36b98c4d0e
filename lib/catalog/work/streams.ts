// The API server's streams into a Windows pod: exec and logs, port-forward.

import { PassThrough } from 'node:stream';
import { PortForward } from '@kubernetes/client-node';
import { asMeansError } from '../../cluster/meansError.ts';
import { permissions } from '../../cluster/permission.ts';
import { connectWithRetries, isTransportFailure } from '../../cluster/resilience.ts';
import { supported } from '../expect.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { cite, sources } from '../../facts/sources.ts';

async function execLogsProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'exec-logs';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  const evidence: EvidenceItem[] = [];
  const problems: string[] = [];
  const marker = `wincheck-exec-${ctx.runId}`;
  ctx.step(`exec cmd /c echo ${marker}`);
  const ex = await ctx.probe(ctx.podTransport(name, 'windows'), { kind: 'echo', text: marker });
  evidence.push(ex.evidence);
  if (!ex.ok || ex.evidence.stdout.trim() !== marker)
    problems.push(`exec: expected "${marker}" on stdout, got exit ${ex.evidence.exitCode} and "${ex.evidence.stdout.trim().slice(0, 100)}"`);
  // agnhost pause prints "Paused" when it starts (docs/windows-commands.md §6).
  ctx.step(`reading the logs of ${name}`);
  let log = '';
  try {
    log = await ctx.kube.core.readNamespacedPodLog({ namespace: ctx.namespace, name });
  } catch (e) {
    // A 403 or an unreachable kubelet is the harness's means, not the logs feature: error.
    const failed = asMeansError(e, 'logs', `reading the logs of ${name}`)!;
    if (failed.means !== 'logs') throw failed;
    problems.push(`logs: the API returned an error: ${failed.message}`);
  }
  evidence.push(`logs of ${name}: ${JSON.stringify(log.slice(0, 200))}`);
  if (!problems.some(p => p.startsWith('logs')) && !log.includes('Paused')) problems.push('logs: "Paused" (agnhost pause) is missing from the container log');
  return problems.length
    ? { works: false, summary: problems.join('; '), evidence, node }
    : { works: true, summary: 'exec returned the echoed marker; logs show the container output', evidence, node };
}

/** Sends one HTTP/1.0 request through a port-forward stream and returns what came back. */
async function httpThroughPortForward(ctx: CheckContext, pod: string, port: number, path: string): Promise<{ response: string; error: string }> {
  const output = new PassThrough();
  const errors = new PassThrough();
  const input = new PassThrough();
  let response = '';
  let error = '';
  output.on('data', (c: Buffer) => {
    response += c.toString('utf8');
  });
  errors.on('data', (c: Buffer) => {
    error += c.toString('utf8');
  });
  const pf = new PortForward(ctx.kube.kc, true);
  const socket = (o: Awaited<ReturnType<PortForward['portForward']>>) => (typeof o === 'function' ? o() : o);
  // The connect is retried as exec's is (resets, 429, 5xx on the upgrade): nothing was sent yet.
  const opened = await connectWithRetries(
    `port-forward to ${ctx.namespace}/${pod}:${port}`,
    ctx.kube.policy,
    ctx.signal,
    () => pf.portForward(ctx.namespace, pod, [port], output, errors, input),
    o => socket(o)?.close(),
  );
  const ws = socket(opened);
  try {
    input.write(`GET ${path} HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const deadline = ctx.options.timeouts.exec;
    await new Promise<void>(resolve => {
      const done = () => {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      };
      const timer = setTimeout(done, deadline);
      // The stream has no end marker per request: done once the body announced by
      // Content-Length has arrived, the stream closed, or an error came back.
      const complete = () => {
        const head = response.indexOf('\r\n\r\n');
        const len = /content-length:\s*(\d+)/i.exec(response)?.[1];
        return error.length > 0 || (head >= 0 && len !== undefined && response.length - head - 4 >= Number(len));
      };
      const poll = setInterval(() => {
        if (complete()) done();
      }, 50);
      ws?.on('close', done);
      ctx.signal.addEventListener('abort', done, { once: true });
    });
  } finally {
    ws?.close();
    input.end();
  }
  return { response, error };
}

async function portForwardProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'port-forward';
  const r = await fixturePodReady(ctx, name);
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  ctx.step(`port-forward to ${name}:8080, GET /hostname`);
  let got: { response: string; error: string };
  try {
    got = await httpThroughPortForward(ctx, name, 8080, '/hostname');
  } catch (e) {
    // No answer from the API server even after retries: the path to the cluster failed, not port-forward.
    if (isTransportFailure(e)) throw e;
    const failed = asMeansError(e, 'port-forward', `port-forward to ${name}:8080 failed`)!;
    if (failed.means !== 'port-forward') throw failed;
    return { works: false, summary: failed.message, evidence: [failed.message], node };
  }
  const status = got.response.split('\r\n')[0] ?? '';
  const body = got.response.split('\r\n\r\n').slice(1).join('\r\n\r\n').trim();
  const evidence: EvidenceItem[] = [
    `port-forward ${ctx.namespace}/${name} 8080: status line "${status}", body "${body.slice(0, 100)}"${got.error ? `, error stream "${got.error.trim().slice(0, 200)}"` : ''}`,
  ];
  const works = /^HTTP\/1\.[01] 200/.test(status) && body === name;
  return {
    works,
    summary: works
      ? `GET /hostname through port-forward answered ${name}`
      : `GET /hostname through port-forward did not answer ${name} (status "${status || 'none'}")${got.error ? `: ${got.error.trim().slice(0, 200)}` : ''}`,
    evidence,
    node,
  };
}

export const features: Feature[] = [
  {
    id: 'work.exec-logs',
    area: 'workloads',
    title: 'exec (cmd /c) and logs work on Windows pods',
    access: permissions('', 'pods/log', ['get'], 'namespace'),
    needs: ['windows-node'],
    subject: ['exec', 'logs'],
    fixtures: [{ id: 'exec-logs', template: 'windows-pause', os: 'windows', params: { selectorKey: 'kubernetes.io/os' } }],
    expect: () => supported('kubectl exec and logs are supported for Windows containers', sources(cite.intro(), cite.e2e())),
    probe: execLogsProbe,
  },
  {
    id: 'work.port-forward',
    area: 'workloads',
    title: 'port-forward to a Windows pod',
    access: permissions('', 'pods/portforward', ['get', 'create'], 'namespace'),
    needs: ['windows-node'],
    subject: ['port-forward'],
    fixtures: [{ id: 'port-forward', template: 'windows-netexec', os: 'windows' }],
    expect: () => supported('port-forward works for Windows pods (wincat in the pause image, Kubernetes >= 1.15)', [cite.intro()]),
    probe: portForwardProbe,
  },
];
