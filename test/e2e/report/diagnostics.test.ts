// Diagnostics of failing checks on the sim: a broken feature leaves its folder (fixture pods'
// spec, status, events, logs; the node's kubelet, containerd and kube-proxy logs and HNS state),
// a passing one none, --no-diagnostics none; no file of the run holds a secret value.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1ClusterRole } from '@kubernetes/client-node';
import { parseAllDocuments, stringify } from 'yaml';
import { ROOT } from '../../support/cli.ts';
import { FAST_NET, runOnSim, type SimRun } from '../../support/simRun.ts';

/** ci/rbac.yaml without the rule on pods/log. */
function withoutPodLogs(): string {
  return parseAllDocuments(readFileSync(join(ROOT, 'ci/rbac.yaml'), 'utf8'))
    .map(d => {
      const o = d.toJS() as V1ClusterRole;
      if (o.kind === 'ClusterRole') o.rules = o.rules!.filter(r => !r.resources!.includes('pods/log'));
      return stringify(o);
    })
    .join('---\n');
}

const FEATURES = ['cfg.secret-env', 'cfg.configmap-env', 'node.services'];
const OPTIONS = { ssh: true, inChild: true, timeouts: { ...FAST_NET, podStart: 30_000 } };

const diagnosticsOf = (run: SimRun, id: string) => Object.keys(run.reportFiles!).filter(p => p.startsWith(`diagnostics/${id}/`));

describe('diagnostics of failing checks (sim)', function () {
  this.timeout(300_000);
  let broken: SimRun;
  let off: SimRun;
  let green: SimRun;

  before(async () => {
    broken = await runOnSim(FEATURES, { ...OPTIONS, breaks: ['secret-env'] });
    off = await runOnSim(FEATURES, { ...OPTIONS, breaks: ['secret-env'], diagnostics: false });
    green = await runOnSim(FEATURES, OPTIONS);
  });

  it('a green run leaves none', () => {
    expect(green.exitCode, green.output.join('\n')).to.equal(0);
    expect(Object.keys(green.reportFiles!).filter(p => p.startsWith('diagnostics/'))).to.deep.equal([]);
  });

  it('a refused pods/log is said in the folder and the preflight only warns', async () => {
    const run = await runOnSim(['cfg.secret-env'], { ...OPTIONS, breaks: ['secret-env'], rbac: withoutPodLogs() });
    expect(run.results.get('cfg.secret-env')?.outcome, run.output.join('\n')).to.equal('regressed');
    expect(run.output.join('\n')).to.match(/Warning: missing permission get pods\/log/);
    const logs = diagnosticsOf(run, 'cfg.secret-env').filter(f => /pods\/.+\.log$/.test(f));
    expect(logs).to.not.be.empty;
    for (const f of logs) expect(run.reportFiles![f]).to.match(/refused "get pods\/log" \(403 Forbidden\)/);
  });

  it('leaves a folder for exactly the failing feature', () => {
    expect(broken.results.get('cfg.secret-env')?.outcome).to.equal('regressed');
    const folders = [
      ...new Set(
        Object.keys(broken.reportFiles!)
          .filter(p => p.startsWith('diagnostics/'))
          .map(p => p.split('/')[1]),
      ),
    ];
    expect(folders).to.deep.equal(['cfg.secret-env']);
    expect(broken.results.get('cfg.secret-env')?.diagnostics).to.equal('diagnostics/cfg.secret-env/');
  });

  it('holds the fixture pods (spec, status, events, logs) and the node logs of the check window', () => {
    const files = diagnosticsOf(broken, 'cfg.secret-env');
    const text = (suffix: string) => files.filter(f => f.endsWith(suffix)).map(f => broken.reportFiles![f]);
    expect(files).to.include('diagnostics/cfg.secret-env/index.txt');
    const pods = text('.yaml');
    expect(pods, files.join('\n')).to.not.be.empty;
    expect(pods[0])
      .to.match(/^spec:/m)
      .and.match(/^status:/m)
      .and.match(/secretKeyRef/);
    expect(pods[0]).to.not.match(/managedFields/);
    expect(text('.events.txt').join('')).to.match(/Started/);
    expect(files.some(f => /pods\/.+\.log$/.test(f))).to.equal(true);
    for (const service of ['kubelet', 'containerd', 'kube-proxy']) {
      const log = text(`/${service}.log`).join('');
      expect(log, service).to.match(/C:\\var\\log/);
      expect(log, service).to.not.match(/not collected/);
    }
    expect(text('/kubelet.log').join('')).to.match(/"Event occurred"/);
    expect(text('/hns.txt').join('')).to.match(/## Get-HnsNetwork/);
    expect(text('/hns.txt').join('')).to.match(/## Get-HnsEndpoint \(exit 0\)\n[\s\S]*IPAddress +: \d/);
  });

  it('is linked from report.html and named in the JUnit <system-out>', () => {
    expect(broken.html).to.include('href="diagnostics/cfg.secret-env/index.txt"');
    const junit = Object.values(broken.junit).join('\n');
    expect(junit).to.match(/diagnostics: diagnostics\/cfg\.secret-env\//);
  });

  it('copies no secret value into any report file', () => {
    expect(broken.secretValues, 'the run created Secrets').to.not.be.empty;
    for (const run of [broken, off])
      for (const [path, text] of Object.entries(run.reportFiles!))
        for (const v of run.secretValues!) {
          expect(text, path).to.not.include(v);
          expect(text, path).to.not.include(Buffer.from(v).toString('base64'));
        }
  });

  it('--no-diagnostics leaves none and the verdicts stay', () => {
    expect(Object.keys(off.reportFiles!).filter(p => p.startsWith('diagnostics/'))).to.deep.equal([]);
    for (const id of FEATURES) expect(off.results.get(id)?.outcome, id).to.equal(broken.results.get(id)?.outcome);
    expect(off.html).to.not.include('diagnostics/');
  });
});
