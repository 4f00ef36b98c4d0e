// Diagnostics of failing checks on the sim: a broken feature leaves its folder (fixture pods'
// spec, status, events, logs; the node's kubelet, containerd and kube-proxy logs and HNS state),
// a passing one none, --no-diagnostics none; no file of the run holds a secret value.

import { expect } from 'chai';
import { FAST_NET, runOnSim, type SimRun } from '../../support/simRun.ts';

const FEATURES = ['cfg.secret-env', 'cfg.configmap-env', 'node.services'];
const OPTIONS = { ssh: true, inChild: true, timeouts: { ...FAST_NET, podStart: 30_000 } };

const diagnosticsOf = (run: SimRun, id: string) => Object.keys(run.reportFiles!).filter(p => p.startsWith(`diagnostics/${id}/`));

describe('diagnostics of failing checks (sim)', function () {
  this.timeout(300_000);
  let broken: SimRun;
  let off: SimRun;

  before(async () => {
    broken = await runOnSim(FEATURES, { ...OPTIONS, breaks: ['secret-env'] });
    off = await runOnSim(FEATURES, { ...OPTIONS, breaks: ['secret-env'], diagnostics: false });
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
