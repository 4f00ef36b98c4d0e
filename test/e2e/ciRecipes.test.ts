// The CI recipes in ci/ parse, run `wincheck run` with flags it has, and publish the files it
// writes: junit_*.xml (as junitFileName names them) where the run put them, summary.md as the
// GitHub job summary, $ARTIFACTS for Prow (wincheck's default report directory there).

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { parse } from 'yaml';
import { resolveConfig } from '../../lib/config/resolve.ts';
import { junitFileName } from '../../lib/report/junit.ts';
import { ROOT, wincheck } from '../support/cli.ts';

const read = (f: string) => readFileSync(join(ROOT, 'ci', f), 'utf8');

/** The `wincheck run ...` command lines in a text. */
function runCommands(text: string): string[] {
  return [...text.matchAll(/npx wincheck run [^\n'"]*(?:"[^"\n]*"[^\n'"]*)*/g)].map(m => m[0]);
}

type Step = {
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  task?: string;
  script?: string;
  condition?: string;
  inputs?: Record<string, string>;
  name?: string;
};

describe('CI recipes (ci/)', function () {
  this.timeout(60_000);
  let runFlags: Set<string>;
  const junitGlobMatches = (glob: string) =>
    picomatch(glob.split('/').pop()!)(junitFileName('services')) && picomatch(glob.split('/').pop()!)(junitFileName('node_access'));

  before(async () => {
    const help = await wincheck(['run', '--help']);
    runFlags = new Set([...help.stdout.matchAll(/(--[a-z-]+)/g)].map(m => m[1]));
  });

  it('every recipe runs `wincheck run` with flags it has, against a kubeconfig from a secret', () => {
    for (const f of ['github-actions/wincheck-nightly.yml', 'prow/wincheck-periodic.yaml', 'azure-pipelines/wincheck.yml', 'jenkins/Jenkinsfile']) {
      const cmds = runCommands(read(f));
      expect(cmds, f).to.have.length(1);
      for (const flag of cmds[0].match(/--[a-z-]+/g) ?? []) expect(runFlags.has(flag), `${f}: ${flag}`).to.equal(true);
      expect(cmds[0], f).to.match(/--kubeconfig \S+/);
    }
  });

  it('GitHub Actions: nightly, kubeconfig from a secret, JUnit published by a reporter action, summary.md as the job summary', () => {
    const wf = parse(read('github-actions/wincheck-nightly.yml')) as { on: { schedule: { cron: string }[] }; jobs: Record<string, { steps: Step[] }> };
    expect(wf.on.schedule[0].cron).to.match(/^\S+ \S+ \* \* \*$/);
    const steps = Object.values(wf.jobs)[0].steps;
    const secret = steps.find(s => Object.values(s.env ?? {}).some(v => /\$\{\{ secrets\.\w+ \}\}/.test(v)))!;
    expect(secret.run).to.contain('umask 077').and.contain('$RUNNER_TEMP/kubeconfig');
    expect(runCommands(steps.map(s => s.run ?? '').join('\n'))[0]).to.contain('--kubeconfig "$RUNNER_TEMP/kubeconfig" --report-dir reports');
    const junit = steps.find(s => s.uses?.startsWith('mikepenz/action-junit-report@'))!;
    expect(junit.if).to.equal('always()');
    expect(junit.with!.report_paths).to.equal('reports/junit_*.xml');
    expect(junitGlobMatches(String(junit.with!.report_paths))).to.equal(true);
    const summary = steps.find(s => s.run?.includes('GITHUB_STEP_SUMMARY'))!;
    expect(summary.if).to.equal('always()');
    expect(summary.run).to.contain('reports/summary.md');
  });

  it('Prow: a decorated periodic whose reports land in $ARTIFACTS, where TestGrid reads junit_*.xml', () => {
    const cfg = parse(read('prow/wincheck-periodic.yaml')) as {
      periodics: {
        decorate: boolean;
        annotations: Record<string, string>;
        spec: { containers: { args: string[]; volumeMounts: { mountPath: string }[] }[]; volumes: { secret?: { secretName: string } }[] };
      }[];
    };
    const job = cfg.periodics[0];
    expect(job.decorate).to.equal(true);
    expect(job.annotations['testgrid-dashboards']).to.be.a('string');
    const cmd = job.spec.containers[0].args.join(' ');
    expect(cmd).to.not.contain('--report-dir');
    // With no --report-dir, wincheck writes into $ARTIFACTS (set by Prow's pod utilities).
    expect(resolveConfig({}, {}, { ARTIFACTS: '/logs/artifacts' }).reportDir).to.equal('/logs/artifacts');
    const kubeconfig = /--kubeconfig (\S+)/.exec(cmd)![1];
    expect(kubeconfig.startsWith(job.spec.containers[0].volumeMounts[0].mountPath + '/')).to.equal(true);
    expect(job.spec.volumes[0].secret?.secretName).to.be.a('string');
    // TestGrid's pattern for JUnit artifacts.
    expect(/^junit(_[^_]+)?.*\.xml$/.test(junitFileName('node_access'))).to.equal(true);
  });

  it('Azure Pipelines: PublishTestResults reads the JUnit where the run wrote it, even on failure', () => {
    const p = parse(read('azure-pipelines/wincheck.yml')) as { variables: Record<string, string>; steps: Step[] };
    const run = p.steps.find(s => s.script?.includes('wincheck run'))!;
    expect(run.script).to.contain('--report-dir "$(reportDir)"');
    const publish = p.steps.find(s => s.task === 'PublishTestResults@2')!;
    expect(publish.condition).to.equal('always()');
    expect(publish.inputs).to.include({ testResultsFormat: 'JUnit', testResultsFiles: '$(reportDir)/junit_*.xml' });
    expect(junitGlobMatches(publish.inputs!.testResultsFiles)).to.equal(true);
    expect(p.steps.find(s => s.task === 'DownloadSecureFile@1')?.name).to.equal('kubeconfig');
    expect(run.script).to.contain('$(kubeconfig.secureFilePath)');
  });

  it("Jenkins: a stage that records the JUnit files in post { always } from the run's report dir", () => {
    const text = read('jenkins/Jenkinsfile');
    expect(text).to.match(/stage\('wincheck'\)/);
    expect(text).to.match(/withCredentials\(\[file\(credentialsId: '[\w-]+', variable: 'WINCHECK_KUBECONFIG'\)\]\)/);
    const dir = /--report-dir (\S+)/.exec(runCommands(text)[0])![1];
    const always = /post \{\s*always \{([\s\S]*?)\}\s*\}/.exec(text)![1];
    const junit = /junit testResults: '([^']+)'/.exec(always)![1];
    expect(junit).to.equal(`${dir}/junit_*.xml`);
    expect(junitGlobMatches(junit)).to.equal(true);
  });
});
