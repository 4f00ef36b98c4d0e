// Real outputs (test/data/real-outputs/) replayed through the sim profile's `replay:` key on an
// otherwise healthy default cluster: each sample must be read (its hit logged) and give the
// verdict a maintainer would give; sibling wordings of one failure give the same verdict.

import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult, Outcome } from '../../lib/catalog/types.ts';
import type { Profile, ReplayEntry } from '../../sim/profiles/types.ts';
import { REPLAY_LOG_ENV } from '../../sim/runtime/replay.ts';
import { realOutput, sourceOf } from '../support/realOutputs.ts';
import { runOnSim, type SimRun } from '../support/simRun.ts';

const text = (n: string) => realOutput(n).text;
/** An event line as `kubectl describe` printed it → the event's message (after the "kubelet…" column). */
const eventMessage = (n: string) =>
  text(n)
    .trim()
    .replace(/^.*?\bkubelet(?:, \S+)?\s+/, '');

interface Replayed {
  run: SimRun;
  hits: { id: string; node: string; pod?: string; command?: string; stage?: string }[];
}

/** One run of `features` on the default profile with the replay entries; the hit log with it. */
async function replayRun(features: string[], replay: ReplayEntry[], edit: (p: Profile) => void = () => {}): Promise<Replayed> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-replay-'));
  const log = join(dir, 'hits.jsonl');
  const saved = process.env[REPLAY_LOG_ENV];
  process.env[REPLAY_LOG_ENV] = log;
  try {
    const run = await runOnSim(features, {
      timeouts: { podStart: 45_000, rollout: 45_000 },
      edit: p => {
        p.replay = replay;
        edit(p);
      },
    });
    const hits = existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map(l => JSON.parse(l) as Replayed['hits'][number])
      : [];
    return { run, hits };
  } finally {
    if (saved === undefined) delete process.env[REPLAY_LOG_ENV];
    else process.env[REPLAY_LOG_ENV] = saved;
    rmSync(dir, { recursive: true, force: true });
  }
}

function result(r: Replayed, id: string): CheckResult {
  const c = r.run.results.get(id);
  expect(c, `${id} has a result`).to.exist;
  return c!;
}

/** The sample was read (its entry hit) and the feature got the maintainer's verdict. */
function expectVerdict(r: Replayed, entry: string, id: string, outcome: Outcome, words?: RegExp): CheckResult {
  expect(
    r.hits.map(h => h.id),
    `${entry} was replayed`,
  ).to.include(entry);
  const c = result(r, id);
  expect(c.outcome, `${id}: ${c.reason} | ${c.summary} | ${c.error ?? ''}`).to.equal(outcome);
  if (words) expect(`${c.reason} ${c.summary} ${JSON.stringify(c.evidence)}`, id).to.match(words);
  return c;
}

const sc = (id: string, service: string, sample: string, exitCode: number): ReplayEntry => ({
  id,
  on: 'node',
  nodes: 'win-*',
  command: `sc(\\.exe)?\\s+queryex\\s+${service}\\b`,
  stdout: text(sample),
  exitCode,
});
const hns = (id: string, sample: string): ReplayEntry => ({ id, on: 'node', nodes: 'win-*', command: 'Get-HnsNetwork', stdout: text(sample) });
const pauseSandbox = (id: string, message: string): ReplayEntry => ({
  id,
  podFailure: { match: { nodes: 'win-*', images: '*pause*' }, stage: 'sandbox', message },
});

const NODE = ['node.services', 'node.hns-network', 'node.pause-image'];

describe('real outputs replayed through the sim', function () {
  this.timeout(10 * 60_000);

  describe('node: services, HNS networks, the pause image', () => {
    it(`a running kubelet (${sourceOf('06')}), an l2bridge network among endpoints' blocks (${sourceOf('05')}), Docker's OS mismatch on the pause sandbox (${sourceOf('13')})`, async () => {
      const r = await replayRun(NODE, [
        sc('sc-kubelet-running', 'kubelet', '06', 0),
        hns('hns-l2bridge', '05'),
        pauseSandbox('pause-docker-mismatch', eventMessage('13')),
      ]);
      expectVerdict(r, 'sc-kubelet-running', 'node.services', 'supported');
      expectVerdict(r, 'hns-l2bridge', 'node.hns-network', 'supported');
      expectVerdict(r, 'pause-docker-mismatch', 'node.pause-image', 'regressed', /container operating system does not match the host operating system/);
    });

    it(`siblings: a running service with a PID (${sourceOf('08')}), only the NAT network (${sourceOf('03')}), containerd's sandbox-image mismatch (${sourceOf('18')})`, async () => {
      const containerd = /RunPodSandbox from runtime service failed" err="(.*)"$/.exec(text('18').trim())![1].replace(/\\"/g, '"');
      const r = await replayRun(NODE, [
        sc('sc-kubelet-pid', 'kubelet', '08', 0),
        hns('hns-nat-only', '03'),
        pauseSandbox('pause-containerd-mismatch', containerd),
      ]);
      expectVerdict(r, 'sc-kubelet-pid', 'node.services', 'supported');
      expectVerdict(r, 'hns-nat-only', 'node.hns-network', 'regressed', /no CNI HNS network/);
      // The same verdict as Docker's wording above.
      expectVerdict(r, 'pause-containerd-mismatch', 'node.pause-image', 'regressed', /no match for platform in manifest/);
    });

    it(`not installed, in English (${sourceOf('09')}) and in Spanish (${sourceOf('10')}); no HNS network at all (${sourceOf('04')})`, async () => {
      // One after the other: each run has its own hit log (the environment variable).
      const en = await replayRun(['node.services', 'node.hns-network'], [sc('sc-containerd-1060', 'containerd', '09', 1060), hns('hns-empty', '04')]);
      const es = await replayRun(['node.services'], [sc('sc-containerd-1060-es', 'containerd', '10', 1060)]);
      expectVerdict(en, 'sc-containerd-1060', 'node.services', 'regressed', /containerd is not installed as a service/);
      expectVerdict(es, 'sc-containerd-1060-es', 'node.services', 'regressed', /containerd is not installed as a service/);
      expectVerdict(en, 'hns-empty', 'node.hns-network', 'regressed', /no CNI HNS network/);
    });
  });

  describe('failures known from the first event', () => {
    it(`Docker takes runAsUser as a Windows user and refuses it (${sourceOf('48')}): sec.linux-fields-ignored says so at once`, async () => {
      const r = await replayRun(
        ['sec.linux-fields-ignored'],
        [{ id: 'runasuser-0x52e', podFailure: { match: { nodes: 'win-*', images: '*servercore*' }, stage: 'sandbox', message: eventMessage('48') } }],
      );
      const c = expectVerdict(r, 'runasuser-0x52e', 'sec.linux-fields-ignored', 'limited', /runAsUser was not ignored.*"1000"/);
      expect(c.durationMs, 'ended at the first event, not at the 45 s pod-start deadline').to.be.below(40_000);
    });

    it(`containerd has no runtime for the RuntimeClass's handler (${sourceOf('28')}): iso.hyperv-runtimeclass says so at once`, async () => {
      const message = /failed: (rpc error: .*)$/.exec(text('28').trim())![1];
      const r = await replayRun(
        ['iso.hyperv-runtimeclass'],
        [{ id: 'no-runtime-handler', podFailure: { match: { nodes: 'win-*', runtimeClassName: '*hyperv*' }, stage: 'sandbox', message } }],
      );
      const c = expectVerdict(r, 'no-runtime-handler', 'iso.hyperv-runtimeclass', 'regressed', /no runtime handler "runsc" configured/);
      expect(c.durationMs, 'ended at the first event, not at the 45 s pod-start deadline').to.be.below(40_000);
    });
  });

  describe('pull failures: the cause from the events on kubelets before 1.32', () => {
    const pull = (): ReplayEntry => ({
      id: 'pull-no-match-platform',
      podFailure: { match: { nodes: 'win-*', images: '*agnhost*' }, stage: 'pull', message: eventMessage('15') },
    });
    it(`containerd's mismatch (${sourceOf('15')}) behind a bare back-off (${sourceOf('53')}) is the image's platform, as on a 1.33 kubelet`, async () => {
      const old = await replayRun(['work.env-colon-name'], [pull()], p => {
        for (const n of p.nodes) if (n.os === 'windows') n.kubeletVersion = 'v1.31.6';
      });
      const now = await replayRun(['work.env-colon-name'], [pull()]);
      for (const r of [old, now]) expectVerdict(r, 'pull-no-match-platform', 'work.env-colon-name', 'error', /image-platform/);
      // The old kubelet's back-off says only which image (sample 53's wording: test/sim/runtime/replay.test.ts).
    });
  });
});
