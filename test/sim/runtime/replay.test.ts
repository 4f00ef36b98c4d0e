// The profile's replay key: command answers in containers and HostProcess pods, pod failures at
// each stage, the hit log, and the back-off wording per kubelet version.

import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPod, exec, events, isReady, startFixture, testProfile, waitEvent, waitPod, WIN, WIN19, type Fixture } from '../../support/runtime.ts';
import { globRegExp, REPLAY_LOG_ENV } from '../../../sim/runtime/replay.ts';
import { validateProfile } from '../../../sim/profiles/profileSchema.ts';
import { SchemaError } from '../../../sim/profiles/schema.ts';
import type { ReplayEntry } from '../../../sim/profiles/types.ts';
import { realOutput } from '../../support/realOutputs.ts';

const SERVERCORE = 'mcr.microsoft.com/windows/servercore:ltsc2022';

describe('sim replay', () => {
  let f: Fixture | undefined;
  let dir: string;
  let log: string;
  const saved = process.env[REPLAY_LOG_ENV];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'replay-'));
    log = join(dir, 'hits.jsonl');
    process.env[REPLAY_LOG_ENV] = log;
  });
  afterEach(async () => {
    await f?.stop();
    f = undefined;
    if (saved === undefined) delete process.env[REPLAY_LOG_ENV];
    else process.env[REPLAY_LOG_ENV] = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  const hits = () =>
    readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l) as { id: string; node: string; pod?: string; command?: string; stage?: string });
  const start = (replay: ReplayEntry[], edit: (p: ReturnType<typeof testProfile>) => void = () => {}) => {
    const p = testProfile({ replay });
    edit(p);
    return startFixture(validateProfile(p)).then(x => (f = x));
  };

  it('globs: * and ? anchored, case-insensitive', () => {
    expect(globRegExp('win-*').test('win-2022')).to.equal(true);
    expect(globRegExp('win-*').test('linux-1')).to.equal(false);
    expect(globRegExp('*pause*').test('registry.k8s.io/pause:3.10')).to.equal(true);
  });

  it('answers a command in a container with the real output, and logs the hit', async () => {
    const sample = realOutput('38').text;
    const fx = await start([{ id: 'nslookup-timeout', on: 'pod', nodes: 'win-*', command: 'nslookup\\s+kubernetes', stdout: sample }]);
    createPod(fx.store, WIN, 'p', { containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }] });
    await waitPod(fx.store, 'p', 'Ready', isReady);
    const r = await exec(fx.runtime, 'p', ['cmd', '/c', 'nslookup kubernetes.default']);
    expect(r).to.include({ exitCode: 0, stdout: sample });
    expect((await exec(fx.runtime, 'p', ['cmd', '/c', 'echo other'])).stdout).to.equal('other\r\n');
    expect(hits()).to.deep.equal([{ id: 'nslookup-timeout', node: WIN, pod: 'rt/p', command: 'cmd /c "nslookup kubernetes.default"' }]);
  });

  it('on: node answers only in HostProcess pods, on: pod only in containers', async () => {
    const fx = await start([{ id: 'sc', on: 'node', command: 'sc(\\.exe)?\\s+queryex\\s+kubelet', stdout: realOutput('08').text, exitCode: 0 }]);
    createPod(fx.store, WIN, 'hp', {
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      hostNetwork: true,
      containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }],
    });
    createPod(fx.store, WIN, 'plain', { containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }] });
    await Promise.all([waitPod(fx.store, 'hp', 'Ready', isReady), waitPod(fx.store, 'plain', 'Ready', isReady)]);
    expect((await exec(fx.runtime, 'hp', ['sc.exe', 'queryex', 'kubelet'])).stdout).to.include('GoodbyeDPI');
    expect((await exec(fx.runtime, 'plain', ['sc.exe', 'queryex', 'kubelet'])).stdout).not.to.include('GoodbyeDPI');
    expect(hits().map(h => [h.id, h.pod])).to.deep.equal([['sc', 'rt/hp']]);
  });

  it('fails the sandbox of matching pods with the real event text', async () => {
    const message = realOutput('13')
      .text.trim()
      .replace(/^.*?kubelet, w1\s+/, '');
    const fx = await start([{ id: 'docker-mismatch', podFailure: { match: { nodes: WIN19, images: '*pause*' }, stage: 'sandbox', message } }]);
    createPod(fx.store, WIN19, 'sb', { containers: [{ name: 'c', image: SERVERCORE }] });
    const ev = await waitEvent(fx.store, 'sb', e => e.reason === 'FailedCreatePodSandBox');
    expect(ev.message).to.equal(message);
    createPod(fx.store, WIN, 'other', { containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }] });
    await waitPod(fx.store, 'other', 'Ready', isReady);
    expect(hits()[0]).to.include({ id: 'docker-mismatch', node: WIN19, pod: 'rt/sb', stage: 'sandbox' });
  });

  it('fails pulls with the real error; the back-off names the cause only from kubelet 1.32', async () => {
    const err = 'rpc error: code = NotFound desc = failed to pull and unpack image "x": no match for platform in manifest: not found';
    const fx = await start([{ id: 'pull', podFailure: { match: { images: '*servercore*' }, stage: 'pull', message: err } }], p => {
      p.nodes.find(n => n.name === WIN19)!.kubeletVersion = 'v1.31.4';
    });
    createPod(fx.store, WIN, 'new', { containers: [{ name: 'c', image: SERVERCORE }] });
    createPod(fx.store, WIN19, 'old', { containers: [{ name: 'c', image: SERVERCORE }] });
    const backOff = (name: string) =>
      waitPod(fx.store, name, 'ImagePullBackOff', p => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ImagePullBackOff').then(
        p => p.status!.containerStatuses![0].state!.waiting!.message,
      );
    expect(await backOff('new')).to.equal(`Back-off pulling image "${SERVERCORE}": ErrImagePull: ${err}`);
    expect(await backOff('old')).to.equal(`Back-off pulling image "${SERVERCORE}"`);
    expect(events(fx.store, 'old').map(e => e.message)).to.include(`Failed to pull image "${SERVERCORE}": ${err}`);
  });

  it("times: a pull that fails twice (the real hcsshim ImportLayer text), then passes on the kubelet's retry", async () => {
    const event = realOutput('22')
      .text.trim()
      .replace(/^.*?kubelet\s+/, '');
    const err = event.replace(/^Failed to pull image "[^"]*": /, '');
    const fx = await start([{ id: 'layer-in-use', podFailure: { match: { images: '*servercore*' }, stage: 'pull', message: err, times: 2 } }]);
    createPod(fx.store, WIN, 'flaky', { containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }] });
    await waitPod(fx.store, 'flaky', 'Ready', isReady);
    const failed = events(fx.store, 'flaky').filter(e => e.message === `Failed to pull image "${SERVERCORE}": ${err}`);
    expect(failed.reduce((n, e) => n + (e.count ?? 1), 0)).to.equal(2);
    expect(hits().filter(h => h.id === 'layer-in-use')).to.have.length(2);
  });

  it('fails container creation and start', async () => {
    const fx = await start([
      {
        id: 'create',
        podFailure: { match: { images: '*servercore:ltsc2022' }, stage: 'create', message: 'hcsshim::CreateComputeSystem c: The parameter is incorrect.' },
      },
      { id: 'start', podFailure: { match: { images: '*nanoserver*' }, stage: 'start', message: 'failed to start containerd task "c": unknown' } },
    ]);
    createPod(fx.store, WIN, 'cr', { containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }] });
    createPod(fx.store, WIN, 'st', {
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['ping', '-t', 'localhost'] }],
    });
    const cr = await waitPod(fx.store, 'cr', 'CreateContainerError', p => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CreateContainerError');
    expect(cr.status!.containerStatuses![0].state!.waiting!.message).to.include('The parameter is incorrect.');
    await waitEvent(fx.store, 'st', e => e.reason === 'Failed' && /failed to start containerd task/.test(e.message ?? ''));
  });

  it('validation names the bad field', () => {
    const bad = (replay: unknown, path: RegExp) => {
      expect(() => validateProfile(testProfile({ replay: replay as ReplayEntry[] })))
        .to.throw(SchemaError)
        .with.property('path')
        .that.matches(path);
    };
    bad([{ id: 'x', on: 'node', command: '(' }], /^replay\[0\]\.command$/);
    bad([{ id: 'x', command: 'sc' }], /^replay\[0\]\.on$/);
    bad([{ id: 'x', on: 'where', command: 'sc' }], /^replay\[0\]\.on$/);
    bad([{ id: 'x', podFailure: { stage: 'boot', message: 'm' } }], /^replay\[0\]\.podFailure\.stage$/);
    bad([{ id: 'x', podFailure: { stage: 'pull' } }], /^replay\[0\]\.podFailure\.message$/);
    bad([{ id: 'x', podFailure: { stage: 'pull', message: 'm', times: 0 } }], /^replay\[0\]\.podFailure\.times$/);
    bad([{ id: 'x', podFailure: { stage: 'pull', message: 'm', match: { image: '*' } } }], /^replay\[0\]\.podFailure\.match\.image$/);
    bad([{ id: 'x', on: 'node', command: 'a', podFailure: { stage: 'pull', message: 'm' } }], /^replay\[0\]\.on$/);
    bad(
      [
        { id: 'x', on: 'node', command: 'a' },
        { id: 'x', on: 'node', command: 'b' },
      ],
      /^replay\[1\]\.id$/,
    );
  });
});

describe('sim outputs follow the real ones', () => {
  let f: Fixture | undefined;
  afterEach(async () => {
    await f?.stop();
    f = undefined;
  });
  const docker = (p: ReturnType<typeof testProfile>) => {
    const n = p.nodes.find(x => x.name === WIN19)!;
    n.containerRuntime = 'docker://20.10.21';
    n.kubeletVersion = 'v1.23.17';
    return p;
  };

  it("Docker: the pod's runAsUser is the pause container's Windows user, refused at CreateProcess (0x52e)", async () => {
    f = await startFixture(docker(testProfile({ kubernetesVersion: 'v1.23.17' })));
    createPod(f.store, WIN19, 'uid', {
      securityContext: { runAsUser: 1000 },
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2019' }],
    });
    const ev = await waitEvent(f.store, 'uid', e => e.reason === 'FailedCreatePodSandBox');
    expect(ev.message).to.match(
      /The user name or password is incorrect\. \(0x52e\) extra info: \{"CommandLine":"cmd \/S \/C \\"PAUSE \\u003cCON\\"","User":"1000"/,
    );
  });

  it("Docker: a pull for another build in the daemon's words", async () => {
    f = await startFixture(docker(testProfile({ kubernetesVersion: 'v1.23.17' })));
    createPod(f.store, WIN19, 'mm', { containers: [{ name: 'c', image: SERVERCORE }] });
    const ev = await waitEvent(f.store, 'mm', e => e.reason === 'Failed' && /Failed to pull image/.test(e.message ?? ''));
    expect(ev.message).to.equal(
      `Failed to pull image "${SERVERCORE}": rpc error: code = Unknown desc = Error response from daemon: no matching manifest for windows/amd64 10.0.17763 in the manifest list entries`,
    );
  });

  it("Docker: a pause image of another build fails the sandbox in HCS's words", async () => {
    f = await startFixture(docker(testProfile({ kubernetesVersion: 'v1.23.17', breaks: ['pause-image'] })));
    createPod(f.store, WIN19, 'pz', { containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2019' }] });
    const ev = await waitEvent(f.store, 'pz', e => e.reason === 'FailedCreatePodSandBox');
    expect(ev.message).to.match(
      /Error response from daemon: hcsshim::CreateComputeSystem \w+: The container operating system does not match the host operating system\.$/,
    );
  });

  it('service PIDs differ from node to node', async () => {
    f = await startFixture();
    const pids = [WIN, WIN19].map(
      n =>
        f!.runtime
          .kubelet(n)
          .node.services()
          .find(s => s.name === 'kubelet')!.pid,
    );
    expect(pids[0]).to.not.equal(pids[1]);
    expect(pids.every(p => p % 4 === 0 && p > 0)).to.equal(true);
  });
});
