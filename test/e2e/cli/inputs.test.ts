// Bad input is refused up front: exit 2 and one line naming the flag or the
// config file's field, before any cluster is contacted (a dead server would give exit 3).

import { expect } from 'chai';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../cli/root.ts';
import { problemWithRegistry, problemWithReportDir, problemWithUrl } from '../../../lib/config/validate.ts';
import { closedPort, deadKubeconfig, tempDir } from '../../support/cli.ts';

/** The CLI in this process: exit code and what it printed. */
async function cli(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '',
    stdout = '';
  const err = process.stderr.write.bind(process.stderr);
  const out = process.stdout.write.bind(process.stdout);
  process.stderr.write = ((c: string) => {
    stderr += c;
    return true;
  }) as typeof process.stderr.write;
  process.stdout.write = ((c: string) => {
    stdout += c;
    return true;
  }) as typeof process.stdout.write;
  try {
    return { code: await main(['node', 'wincheck', ...args]), stderr, stdout };
  } finally {
    process.stderr.write = err;
    process.stdout.write = out;
  }
}

describe('input validation', function () {
  this.timeout(30_000);
  let kc: string;
  let dir: string;
  let key: string;
  before(async () => {
    kc = deadKubeconfig(await closedPort());
    dir = tempDir();
    key = join(dir, 'id');
    writeFileSync(key, 'key', { mode: 0o600 });
  });

  const bad = (name: string, args: () => string[], names: RegExp) =>
    it(`${name}: exit 2, one line naming it, before the cluster`, async () => {
      const r = await cli(['run', '--kubeconfig', kc, '--report-dir', join(dir, 'reports'), ...args()]);
      expect(r.code, r.stderr).to.equal(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).to.have.length(1);
      expect(lines[0]).to.match(names);
    });

  bad('--egress-url notaurl', () => ['--egress-url', 'notaurl'], /^Error: --egress-url "notaurl" is not a URL/);
  bad('--egress-url with a newline', () => ['--egress-url', 'http://a/\nFAKE'], /^Error: --egress-url contains a control character/);
  bad('--egress-url ftp://', () => ['--egress-url', 'ftp://x/'], /^Error: --egress-url .* not an http/);
  bad('--image-registry with a scheme', () => ['--image-registry', 'https://mirror'], /^Error: --image-registry .*without a scheme/);
  bad('--image-registry with spaces', () => ['--image-registry', 'my mirror'], /^Error: --image-registry "my mirror" is not a registry/);
  bad('a missing --ssh-key', () => ['--ssh-key', join(dir, 'nope')], /^Error: --ssh-key .*nope does not exist/);
  bad('a missing --ssh-known-hosts', () => ['--ssh-key', key, '--ssh-known-hosts', join(dir, 'kh')], /^Error: --ssh-known-hosts .*kh does not exist/);
  bad('--ssh-key a directory', () => ['--ssh-key', dir], /^Error: --ssh-key .* is not a file/);
  bad('--disruptive without a node', () => ['--disruptive'], /^Error: --disruptive needs --disruptive-node NODE/);
  bad('--disruptive-node without --disruptive', () => ['--disruptive-node', 'win-1'], /^Error: --disruptive-node win-1 is used only with --disruptive/);
  bad('--timeout 0', () => ['--timeout', '0s'], /^Error: --timeout "0s" must be longer than zero/);
  bad('--timeout 20 (no unit)', () => ['--timeout', '20'], /^Error: --timeout "20" is not a duration with a unit/);
  bad('a 100 KB --suite', () => ['--suite', 'x'.repeat(100_000)], /^Error: --suite: a value of \d+ characters is too long/);
  bad('a 100 KB --feature=', () => [`--feature=${'y'.repeat(100_000)}`], /^Error: --feature: a value of \d+ characters is too long/);

  it('a config file field is named by file and field', async () => {
    const cfg = join(dir, 'wincheck.yaml');
    writeFileSync(cfg, `egressUrl: "notaurl"\nssh:\n  key: ${join(dir, 'missing')}\n`);
    const r = await cli(['run', '--kubeconfig', kc, '--report-dir', join(dir, 'r2'), '--config', cfg]);
    expect(r.code).to.equal(2);
    expect(r.stderr.trim()).to.match(/^Error: wincheck\.yaml: egressUrl "notaurl" is not a URL/);
    writeFileSync(cfg, 'timeout: 20\n');
    expect((await cli(['run', '--kubeconfig', kc, '--config', cfg])).stderr.trim()).to.match(/^Error: wincheck\.yaml: timeout must be a duration with a unit/);
  });

  describe('the report directory', () => {
    const refuses = (name: string, reportDir: () => string, why: RegExp) =>
      it(`${name}: exit 2 naming it, nothing created`, async () => {
        const r = await cli(['run', '--kubeconfig', kc, '--report-dir', reportDir()]);
        expect(r.code, r.stderr).to.equal(2);
        expect(r.stderr.trim().split('\n')).to.have.length(1);
        expect(r.stderr).to.match(why);
      });
    refuses(
      'a file',
      () => {
        const f = join(dir, 'afile');
        writeFileSync(f, '');
        return f;
      },
      /--report-dir .*afile is a file, not a directory/,
    );
    refuses(
      'under a file',
      () => {
        const f = join(dir, 'afile2');
        writeFileSync(f, '');
        return join(f, 'sub', 'deeper');
      },
      /--report-dir .*afile2\/sub\/deeper is under .*afile2, which is a file/,
    );
    refuses('a 300-character name', () => join(dir, 'r'.repeat(300)), /--report-dir .* has a name of 300 bytes \(at most 255\)/);
    refuses('/proc/x', () => '/proc/x/reports', /--report-dir \/proc\/x\/reports cannot be written/);

    it('a read-only directory cannot be written (root can, so only as non-root)', function () {
      if (process.getuid?.() === 0) this.skip();
      const ro = join(dir, 'ro');
      mkdirSync(ro);
      chmodSync(ro, 0o500);
      expect(problemWithReportDir(join(ro, 'reports'))).to.match(/cannot be written/);
    });

    it('a good one is created and left empty; the run goes on (here: to the dead cluster, exit 3)', async () => {
      const good = join(dir, 'new', 'reports');
      const r = await cli(['run', '--kubeconfig', kc, '--report-dir', good]);
      expect(r.code, r.stderr).to.equal(3);
      expect(existsSync(good)).to.equal(true);
    });
  });

  it('accepts the usual forms', () => {
    for (const u of ['http://example.com/', 'https://10.0.0.1:8443/path?q=1', 'http://[::1]:80/']) expect(problemWithUrl(u), u).to.equal(undefined);
    for (const r of ['mirror.local', 'mirror.example.com:5000', 'mirror.example.com:5000/k8s/images', 'localhost:5000', 'MCR.microsoft.com'])
      expect(problemWithRegistry(r), r).to.equal(undefined);
  });
});

describe('reports that fail to write', () => {
  it('are named as lost, and the console does not claim they were written', async () => {
    const { Multiplexer } = await import('../../../lib/report/multiplexer.ts');
    const { default: ConsoleReporter } = await import('../../../lib/report/console.ts');
    const lines: string[] = [];
    const failing = new (class JUnitReporter {
      onEnd() {
        throw new Error("EACCES: permission denied, open '/r/junit_config.xml'");
      }
    })();
    const consoleReporter = new ConsoleReporter(l => lines.push(l));
    (consoleReporter as unknown as { _reportDir: string })._reportDir = '/r';
    const m = new Multiplexer([failing, consoleReporter], l => lines.push(l));
    await m.onEnd({
      status: 'passed',
      counts: { supported: 1, limited: 0, lifted: 0, regressed: 0, 'n/a': 0, error: 0 },
      results: [],
      durationMs: 1,
      errors: [],
    });
    expect(m.lost).to.deep.equal(["JUnitReporter: EACCES: permission denied, open '/r/junit_config.xml'"]);
    expect(lines.join('\n')).to.contain('Error: reports NOT written to /r: JUnitReporter: EACCES').and.not.contain('Reports written');
  });
});
