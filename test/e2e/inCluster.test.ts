// wincheck as a Job in the cluster it tests, end to end on the sim: ci/rbac.yaml and the
// manifests of ci/in-cluster/ applied with kubectl, the Job (narrowed to one feature) runs the
// image's entrypoint, a real wincheck process, in-cluster (service account token, CA, API
// address from the pod), and its reports come back without exec: the log ends with summary.md
// and the ConfigMap holds results.json.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from '../support/simProcess.ts';
import { useSimWithKubectl } from '../support/simKubectl.ts';

const FEATURE = 'sched.os-selector';
const DIR = join(ROOT, 'ci/in-cluster');

describe('in-cluster: the ci/in-cluster Job on the sim', function () {
  this.timeout(180_000);
  const k = useSimWithKubectl();

  it('lists its files in the order kubectl apply -f ci/in-cluster/ needs (lexical: the Namespace first, the Job last)', async () => {
    const { readdirSync } = await import('node:fs');
    const kinds = readdirSync(DIR)
      .sort()
      .flatMap(f => parseAllDocuments(readFileSync(join(DIR, f), 'utf8')).map(d => d.toJS().kind));
    expect(kinds[0]).to.equal('Namespace');
    expect(kinds.at(-1)).to.equal('Job');
  });

  it('completes; kubectl logs job/wincheck ends with the summary; the ConfigMap holds results.json; the run namespace is gone', async () => {
    for (const f of [join(ROOT, 'ci/rbac.yaml'), join(DIR, '00-namespace.yaml'), join(DIR, '10-rbac.yaml')]) {
      const r = await k(['apply', '-f', f]);
      expect(r.exitCode, `${f}: ${r.stderr}`).to.equal(0);
    }
    const docs = parseAllDocuments(readFileSync(join(DIR, '20-job.yaml'), 'utf8')).map(d => d.toJS());
    expect(docs).to.have.length(1);
    const job = docs[0];
    expect(job.spec.template.spec.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'linux' });
    expect(job.spec.template.spec.securityContext.runAsNonRoot).to.equal(true);
    job.spec.template.spec.containers[0].args.push('--feature', FEATURE);
    const applied = await k(['apply', '-f', '-'], JSON.stringify(job));
    expect(applied.exitCode, applied.stderr).to.equal(0);

    // kubectl wait watches the Job (no polling here); a failure shows the Job's log.
    const wait = await k(['wait', '--for=condition=Complete', 'job/wincheck', '-n', 'wincheck', '--timeout=120s']);
    const logs = await k(['logs', 'job/wincheck', '-n', 'wincheck']);
    expect(wait.exitCode, `${wait.stderr}\nJob log:\n${logs.stdout}${logs.stderr}`).to.equal(0);
    expect(logs.exitCode, logs.stderr).to.equal(0);
    expect(logs.stdout).to.include('in-cluster service account');

    const cm = JSON.parse((await k(['get', 'configmap', 'wincheck-results', '-n', 'wincheck', '-o', 'json'])).stdout);
    expect(cm.metadata.labels).to.include({ 'app.kubernetes.io/name': 'wincheck', 'app.kubernetes.io/component': 'results' });
    expect(Object.keys(cm.data)).to.include.members(['summary.md', 'results.json']);
    expect(Object.keys(cm.data).some(f => /^junit_.*\.xml$/.test(f))).to.equal(true);
    expect(cm.data).to.not.have.property('OMITTED.txt');
    const results = JSON.parse(cm.data['results.json']);
    const list = results.summary.results as { id: string; outcome: string }[];
    expect(list.map(r => r.id)).to.deep.equal([FEATURE]);
    expect(list[0].outcome).to.equal('supported');
    // The log ends with the summary the run wrote.
    expect(logs.stdout.trimEnd().endsWith(cm.data['summary.md'].trimEnd()), `log does not end with summary.md:\n${logs.stdout}`).to.equal(true);

    const pods = JSON.parse((await k(['get', 'pods', '-n', 'wincheck', '-l', 'job-name=wincheck', '-o', 'json'])).stdout).items;
    expect(pods).to.have.length(1);
    expect(pods[0].status.phase).to.equal('Succeeded');
    const node = JSON.parse((await k(['get', 'node', pods[0].spec.nodeName, '-o', 'json'])).stdout);
    expect(node.metadata.labels['kubernetes.io/os']).to.equal('linux');
    // The run cleaned up after itself; the results ConfigMap (no run label) stays.
    const runNamespaces = JSON.parse((await k(['get', 'namespaces', '-l', 'wincheck.io/run-id', '-o', 'json'])).stdout).items.filter(
      (n: { status?: { phase?: string } }) => n.status?.phase !== 'Terminating',
    );
    expect(runNamespaces).to.have.length(0);
  });

  it('a run that fails makes the Job Failed (backoffLimit 0: one pod) with its exit code and its error in the log', async () => {
    const job = parseAllDocuments(readFileSync(join(DIR, '20-job.yaml'), 'utf8'))[0].toJS();
    job.metadata.name = 'wincheck-bad';
    job.spec.template.spec.containers[0].args.push('--feature', 'no.such-feature');
    const applied = await k(['apply', '-f', '-'], JSON.stringify(job));
    expect(applied.exitCode, applied.stderr).to.equal(0);
    const wait = await k(['wait', '--for=condition=Failed', 'job/wincheck-bad', '-n', 'wincheck', '--timeout=120s']);
    const logs = await k(['logs', 'job/wincheck-bad', '-n', 'wincheck']);
    expect(wait.exitCode, `${wait.stderr}\nJob log:\n${logs.stdout}${logs.stderr}`).to.equal(0);
    expect(logs.stdout + logs.stderr).to.include('no.such-feature');
    const pods = JSON.parse((await k(['get', 'pods', '-n', 'wincheck', '-l', 'job-name=wincheck-bad', '-o', 'json'])).stdout).items;
    expect(pods).to.have.length(1);
    expect(pods[0].status.containerStatuses[0].state.terminated.exitCode).to.equal(2);
  });
});

describe('in-cluster: detection', () => {
  it('is in a pod only with KUBERNETES_SERVICE_HOST and the mounted token; reads the namespace file', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { inClusterRoot, inClusterNamespace } = await import('../../lib/cluster/kubeconfig.ts');
    const root = mkdtempSync(join(tmpdir(), 'wincheck-root-'));
    const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', WINCHECK_CONTAINER_ROOT: root };
    expect(inClusterRoot(env), 'no token mounted').to.equal(undefined);
    const sa = join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'token'), 'x');
    writeFileSync(join(sa, 'namespace'), 'wincheck');
    expect(inClusterRoot(env)).to.equal(root);
    expect(inClusterNamespace(env)).to.equal('wincheck');
    expect(inClusterRoot({ WINCHECK_CONTAINER_ROOT: root }), 'no KUBERNETES_SERVICE_HOST').to.equal(undefined);
  });
});

describe('in-cluster: the results ConfigMap data', () => {
  it('keeps summary.md and results.json first and names what the size budget left out', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { resultsData } = await import('../../lib/run/inCluster.ts');
    const dir = mkdtempSync(join(tmpdir(), 'wincheck-cm-'));
    writeFileSync(join(dir, 'summary.md'), 's'.repeat(100));
    writeFileSync(join(dir, 'results.json'), 'r'.repeat(300));
    writeFileSync(join(dir, 'junit_a.xml'), 'a'.repeat(200));
    writeFileSync(join(dir, 'junit_b.xml'), 'b'.repeat(50));
    writeFileSync(join(dir, 'report.html'), 'h'.repeat(10));
    const { data, omitted } = resultsData(dir, 600);
    expect(Object.keys(data).sort()).to.deep.equal(['OMITTED.txt', 'junit_b.xml', 'results.json', 'summary.md']);
    expect(omitted).to.deep.equal(['junit_a.xml (200 bytes)']);
    expect(data['OMITTED.txt']).to.include('junit_a.xml (200 bytes)').and.include(dir);
  });
});
