// The sim's Job controller through real kubectl: a Job runs to Complete, `kubectl logs
// job/NAME` reads its pod's log, a failing Job stops at backoffLimit with Failed, and
// deleting a Job removes its pods (ownerReferences, garbage collector).

import { expect } from 'chai';
import { useSimWithKubectl } from '../../support/simKubectl.ts';

const job = (name: string, script: string, backoffLimit: number) =>
  JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      backoffLimit,
      template: {
        spec: {
          restartPolicy: 'Never',
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          containers: [{ name: 'main', image: 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1', command: ['sh', '-c', script] }],
        },
      },
    },
  });

describe('sim: Jobs', function () {
  this.timeout(120_000);
  const k = useSimWithKubectl('1.33', 60_000);

  it('runs a Job to Complete; kubectl logs job/NAME reads its pod; deleting the Job removes the pod', async () => {
    expect((await k(['apply', '-f', '-'], job('hello', 'echo hello from the job', 2))).exitCode).to.equal(0);
    const wait = await k(['wait', '--for=condition=Complete', 'job/hello', '--timeout=50s']);
    expect(wait.exitCode, wait.stderr + wait.stdout).to.equal(0);
    const j = JSON.parse((await k(['get', 'job/hello', '-o', 'json'])).stdout);
    expect(j.status).to.include({ succeeded: 1, active: 0 });
    expect(j.status.completionTime).to.be.a('string');
    const pods = JSON.parse((await k(['get', 'pods', '-l', 'job-name=hello', '-o', 'json'])).stdout).items;
    expect(pods).to.have.length(1);
    expect(pods[0].metadata.ownerReferences[0]).to.include({ kind: 'Job', name: 'hello', controller: true });
    const logs = await k(['logs', 'job/hello']);
    expect(logs.exitCode, logs.stderr).to.equal(0);
    expect(logs.stdout).to.equal('hello from the job\n');
    expect((await k(['delete', 'job/hello', '--cascade=foreground', '--wait=true'])).exitCode).to.equal(0);
    const left = await k(['wait', '--for=delete', 'pod', '-l', 'job-name=hello', '--timeout=30s']);
    expect(left.exitCode, left.stderr).to.equal(0);
    expect(JSON.parse((await k(['get', 'pods', '-l', 'job-name=hello', '-o', 'json'])).stdout).items).to.have.length(0);
  });

  it('stops a failing Job at backoffLimit with condition Failed (BackoffLimitExceeded)', async () => {
    expect((await k(['apply', '-f', '-'], job('fails', 'echo bad; exit 3', 1))).exitCode).to.equal(0);
    const wait = await k(['wait', '--for=condition=Failed', 'job/fails', '--timeout=50s']);
    expect(wait.exitCode, wait.stderr + wait.stdout).to.equal(0);
    const j = JSON.parse((await k(['get', 'job/fails', '-o', 'json'])).stdout);
    expect(j.status.failed).to.equal(2);
    expect(j.status.succeeded ?? 0).to.equal(0);
    expect(j.status.conditions.find((c: { type: string }) => c.type === 'Failed').reason).to.equal('BackoffLimitExceeded');
    const pods = JSON.parse((await k(['get', 'pods', '-l', 'job-name=fails', '-o', 'json'])).stdout).items;
    expect(pods.map((p: { status: { phase: string } }) => p.status.phase)).to.deep.equal(['Failed', 'Failed']);
  });
});
