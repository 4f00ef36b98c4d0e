// Interrupts and concurrent runs against one `wincheck sim` process:
// SIGINT/SIGTERM at seeded moments leave 0 objects and exit 130; a second Ctrl-C exits at once
// printing the exact cleanup command, which removes what is left; after SIGKILL, `wincheck
// cleanup` removes everything; a live run's lease keeps `cleanup` away from it; SIGTERM to
// `npx wincheck run` still cleans up. bench/interrupts.ts runs 20 seeded moments.

import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, NodeV1Api, StorageV1Api, type V1Namespace } from '@kubernetes/client-node';
import { makeClients } from '../../lib/cluster/client.ts';
import { watchUntil } from '../../lib/cluster/watch.ts';
import { execa } from 'execa';
import { parse, stringify } from 'yaml';
import { ROOT, startWincheck, tempDir, wincheck } from '../support/cli.ts';
import { interruptAt, INTERRUPT_FEATURES, runIdOf, waitForOutput } from '../support/interrupts.ts';
import { startSimProcess, type SimProcess } from '../support/simProcess.ts';

describe('interrupts, leases and signals', function () {
  this.timeout(300_000);
  let sim: SimProcess;
  let core: CoreV1Api;
  let node: NodeV1Api;
  let storage: StorageV1Api;
  let kc: KubeConfig;

  before(async () => {
    sim = await startSimProcess();
    kc = new KubeConfig();
    kc.loadFromFile(sim.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    node = kc.makeApiClient(NodeV1Api);
    storage = kc.makeApiClient(StorageV1Api);
  });
  after(async () => {
    if (sim) await sim.stop('SIGTERM');
  });

  async function leftovers(runId: string): Promise<string[]> {
    const sel = { labelSelector: `wincheck.io/run-id=${runId}` };
    const [ns, rcs, scs, pvs, pods, named] = await Promise.all([
      core.listNamespace(sel),
      node.listRuntimeClass(sel),
      storage.listStorageClass(sel),
      core.listPersistentVolume(sel),
      core.listPodForAllNamespaces(sel),
      core.listNamespace({ fieldSelector: `metadata.name=wincheck-${runId}` }),
    ]);
    return [...ns.items, ...rcs.items, ...scs.items, ...pvs.items, ...pods.items, ...named.items].map(o => `${o.kind ?? 'object'} ${o.metadata?.name}`);
  }

  for (const seed of [1, 2])
    it(`a signal at a seeded moment (seed ${seed}) leaves 0 objects and exits 130`, async () => {
      // A fast machine can finish the run before a late seeded moment: then the same phase is
      // tried again with a shorter delay, down to none, so the signal always lands in the run.
      let r = await interruptAt(seed, sim.kubeconfig);
      for (const scale of [0.25, 0]) if (!r.seen) r = await interruptAt(seed, sim.kubeconfig, scale);
      expect(r.seen, `the run ended before ${r.moment}`).to.equal(true);
      expect(r.exitCode, `${r.moment}\n${r.output}`).to.equal(130);
      expect(await leftovers(r.runId), r.moment).to.deep.equal([]);
    });

  it('SIGINT during teardown: still exit 130, never 0, and nothing left', async () => {
    const p = startWincheck(['run', '--kubeconfig', sim.kubeconfig, '--report-dir', tempDir(), '--feature', 'cfg.configmap-env']);
    // A ConfigMap with a finalizer holds the namespace's deletion open, so the signal surely
    // lands while teardown waits (the sim deletes an empty namespace in milliseconds).
    const created = await waitForOutput(p, /Created namespace (\S+)\./);
    const namespace = /Created namespace (\S+)\./.exec(created)![1];
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'hold-teardown', finalizers: ['wincheck.io/test-hold'] } } });
    const out = await waitForOutput(p, /Deleting namespace/);
    p.kill('SIGINT');
    await waitForOutput(p, /SIGINT: stopping/);
    await core.patchNamespacedConfigMap({ namespace, name: 'hold-teardown', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    const r = await p;
    expect(r.exitCode, String(r.all)).to.equal(130);
    expect(await leftovers(runIdOf(out))).to.deep.equal([]);
  });

  it('a second Ctrl-C exits at once with the exact cleanup command, which removes what is left', async () => {
    const p = startWincheck(['run', '--kubeconfig', sim.kubeconfig, '--report-dir', tempDir(), ...INTERRUPT_FEATURES.flatMap(f => ['--feature', f])]);
    const out = await waitForOutput(p, /Deploying \d+ fixture/);
    // A ConfigMap with a finalizer holds the cleanup open, so the second signal surely lands
    // before the first one's cleanup is done (the sim deletes a namespace in milliseconds).
    const namespace = `wincheck-${runIdOf(out)}`;
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'hold-teardown', finalizers: ['wincheck.io/test-hold'] } } });
    p.kill('SIGINT');
    await waitForOutput(p, /SIGINT: stopping/);
    p.kill('SIGINT');
    const r = await p;
    const all = String(r.all);
    expect(r.exitCode, all).to.equal(1);
    await core.patchNamespacedConfigMap({ namespace, name: 'hold-teardown', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    const runId = runIdOf(out);
    const cmd = new RegExp(`wincheck cleanup --kubeconfig (\\S+) --context (\\S+) --run-id ${runId}`).exec(all);
    expect(cmd, all).to.not.equal(null);
    expect(cmd![1]).to.equal(sim.kubeconfig);
    const c = await wincheck(['cleanup', '--kubeconfig', cmd![1], '--context', cmd![2], '--run-id', runId]);
    expect(c.exitCode, c.all).to.equal(0);
    expect(await leftovers(runId)).to.deep.equal([]);
  });

  it('the cleanup command printed after a second Ctrl-C carries --context, --cluster, --user, --as and --as-group, and works as printed', async () => {
    // The file's own context points at a dead cluster and a refused user: only the flags reach the sim.
    const simKc = parse(readFileSync(sim.kubeconfig, 'utf8')) as { clusters: { cluster: object }[]; users: { user: object }[] };
    const dir = tempDir();
    const file = join(dir, 'two clusters.yaml');
    writeFileSync(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'dead', cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } },
          { name: 'sim', cluster: simKc.clusters[0].cluster },
        ],
        users: [
          { name: 'nobody', user: { token: 'not-a-token' } },
          { name: 'admin', user: simKc.users[0].user },
        ],
        contexts: [{ name: 'elsewhere', context: { cluster: 'dead', user: 'nobody' } }],
        'current-context': 'elsewhere',
      }),
    );
    const identity = ['--cluster', 'sim', '--user', 'admin', '--as', 'wincheck-admin', '--as-group', 'system:masters', '--as-group', 'system:authenticated'];
    const p = startWincheck(['run', '--kubeconfig', file, ...identity, '--report-dir', tempDir(), ...INTERRUPT_FEATURES.flatMap(f => ['--feature', f])]);
    const out = await waitForOutput(p, /Deploying \d+ fixture/);
    const runId = runIdOf(out);
    const namespace = `wincheck-${runId}`;
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'hold-teardown', finalizers: ['wincheck.io/test-hold'] } } });
    p.kill('SIGINT');
    await waitForOutput(p, /SIGINT: stopping/);
    p.kill('SIGINT');
    const all = String((await p).all);
    const line = /^\s*(wincheck cleanup .*)$/m.exec(all)?.[1];
    expect(line, all).to.equal(
      `wincheck cleanup --kubeconfig '${file}' --context elsewhere --cluster sim --user admin --as wincheck-admin --as-group system:masters --as-group system:authenticated --run-id ${runId}`,
    );
    // As printed, by a shell, with wincheck being this checkout's CLI.
    const cleanup = execa('sh', ['-c', `wincheck() { "${process.execPath}" --import tsx "${join(ROOT, 'cli/main.ts')}" "$@"; }; ${line}`], {
      cwd: ROOT,
      reject: false,
      all: true,
    });
    // The held namespace is still there when the printed command reaches it; only then is the
    // hold released (else the run's own deletion could finish first, leaving cleanup nothing).
    await waitForOutput(cleanup, new RegExp(`Deleting namespace ${namespace}`));
    await core.patchNamespacedConfigMap({ namespace, name: 'hold-teardown', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    const c = await cleanup;
    expect(c.exitCode, String(c.all)).to.equal(0);
    expect(String(c.stdout)).to.contain(`Deleted namespace ${namespace}.`);
    expect(await leftovers(runId)).to.deep.equal([]);
  });

  it('after SIGKILL, wincheck cleanup removes everything (the dead holder frees the lease)', async () => {
    const p = startWincheck(['run', '--kubeconfig', sim.kubeconfig, '--report-dir', tempDir(), ...INTERRUPT_FEATURES.flatMap(f => ['--feature', f])]);
    const out = await waitForOutput(p, /Deploying \d+ fixture/);
    p.kill('SIGKILL');
    await p;
    const runId = runIdOf(out);
    expect(await leftovers(runId)).to.not.deep.equal([]);
    const c = await wincheck(['cleanup', '--kubeconfig', sim.kubeconfig]);
    expect(c.exitCode, c.all).to.equal(0);
    expect(c.stdout).to.contain(`Deleted namespace wincheck-${runId}.`);
    expect(await leftovers(runId)).to.deep.equal([]);
  });

  it('a live run holds a lease: cleanup skips it and says so, the run completes intact; --force overrides', async () => {
    const p = startWincheck(['run', '--kubeconfig', sim.kubeconfig, '--report-dir', tempDir(), '--feature', 'net.w2l']); // 10 s of steady-state probing: long enough to clean up beside it
    const out = await waitForOutput(p, /Created namespace/);
    const runId = runIdOf(out);
    const all = await wincheck(['cleanup', '--kubeconfig', sim.kubeconfig]);
    expect(all.exitCode, all.all).to.equal(0);
    expect(all.stdout).to.contain(`Skipped 1 run(s) still in progress: ${runId}`);
    const other = await wincheck(['cleanup', '--kubeconfig', sim.kubeconfig, '--run-id', 'someoneelse']);
    expect(other.stdout).to.contain('Deleted 0 namespace(s)');
    const r = await p;
    expect(r.exitCode, String(r.all)).to.equal(0);
    expect(await leftovers(runId)).to.deep.equal([]);
    // A lease held by a live process elsewhere (here: this test process), then --force.
    await core.createNamespace({
      body: {
        metadata: {
          name: 'wincheck-leased',
          labels: { 'wincheck.io/run-id': 'leased' },
          annotations: { 'wincheck.io/heartbeat': new Date().toISOString(), 'wincheck.io/holder': `elsewhere/${process.pid}` },
        },
      },
    });
    expect((await wincheck(['cleanup', '--kubeconfig', sim.kubeconfig, '--run-id', 'leased'])).stdout).to.contain('Skipped 1 run(s) still in progress: leased');
    const forced = await wincheck(['cleanup', '--kubeconfig', sim.kubeconfig, '--run-id', 'leased', '--force']);
    expect(forced.stdout, forced.all).to.contain('Deleted namespace wincheck-leased.');
  });

  it("two runs at once both complete, each cleaning only its own objects; neither sees the other's utility VM as a lift", async () => {
    const features = ['iso.hyperv-runtimeclass', 'iso.hyperv-annotation', 'cfg.configmap-env'];
    const dirs = [tempDir(), tempDir()];
    const [a, b] = await Promise.all(
      dirs.map(dir => wincheck(['run', '--kubeconfig', sim.kubeconfig, '--report-dir', dir, ...features.flatMap(f => ['--feature', f])])),
    );
    const outcomesOf = (dir: string) =>
      Object.fromEntries(
        (JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { summary: { results: { id: string; outcome: string }[] } }).summary.results.map(r => [
          r.id,
          r.outcome,
        ]),
      );
    expect(a.exitCode, a.all).to.equal(0);
    expect(b.exitCode, b.all).to.equal(0);
    expect(outcomesOf(dirs[0])).to.deep.equal(outcomesOf(dirs[1]));
    expect(outcomesOf(dirs[0])['iso.hyperv-annotation']).to.not.equal('lifted');
    expect(await leftovers(runIdOf(a.stdout))).to.deep.equal([]);
    expect(await leftovers(runIdOf(b.stdout))).to.deep.equal([]);
  });

  it('SIGTERM to `npx wincheck run` reaches the harness: it cleans up', async () => {
    const p = execa(
      'npx',
      // net.session-affinity-timeout waits out an affinity timeout (about 15 s): the run is still
      // going when npm's death is noticed (polled every 500 ms), whatever the machine's speed.
      [
        'wincheck',
        'run',
        '--kubeconfig',
        sim.kubeconfig,
        '--report-dir',
        tempDir(),
        ...[...INTERRUPT_FEATURES, 'net.session-affinity-timeout'].flatMap(f => ['--feature', f]),
      ],
      { cwd: ROOT, reject: false, all: true, env: { NO_COLOR: '1' } },
    );
    const out = await waitForOutput(p, /Deploying \d+ fixture/, 120_000);
    p.kill('SIGTERM'); // to npm, not to wincheck: npm does not pass it on
    // The harness's own words after the signal (matched on the whole output so far: a bare
    // /Error/ could match a line from before the signal), then the end of its cleanup.
    const rest = await waitForOutput(p, /SIGTERM: stopping[\s\S]*(Interrupted|Deleted namespace|cleanup failed)/, 120_000);
    const r = await p;
    const text = `${rest}${String(r.all ?? '')}`;
    expect(text, text).to.contain('SIGTERM: stopping');
    // The harness outlives npm: wait for its last line, then look.
    await waitForNamespaceGone(kc, `wincheck-${runIdOf(out)}`);
    expect(await leftovers(runIdOf(out))).to.deep.equal([]);
  });
});

/** Watches (with a deadline) until the namespace is gone: the harness outlives npm by its cleanup. */
async function waitForNamespaceGone(kc: KubeConfig, name: string, timeoutMs = 120_000): Promise<void> {
  const kube = makeClients(kc);
  await watchUntil<V1Namespace, true>({
    kube,
    path: '/api/v1/namespaces',
    fieldSelector: `metadata.name=${name}`,
    list: () => kube.core.listNamespace({ fieldSelector: `metadata.name=${name}` }),
    onList: items => (items.length === 0 ? true : undefined),
    check: (_ns, type) => (type === 'DELETED' ? true : undefined),
    what: `namespace ${name} to be deleted`,
    describe: ns => ns?.status?.phase ?? 'not seen',
    timeoutMs,
  });
}
