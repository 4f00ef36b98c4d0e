// cfg.configmap-file-acl against the sim (upstream demo.go "Windows tests check file permissions
// container should have right permissions"): supported on the default profile (the item file reads
// value-2 and its ACL reads as 0775); with volume-file-acl broken (no Users rule), regressed at 0770
// while the file still reads.

import { expect } from 'chai';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'cfg.configmap-file-acl';

describe("a ConfigMap item's file ACL, against the sim", function () {
  this.timeout(3 * 60_000);

  it('default profile supported (0775); volume-file-acl broken: regressed (0770), the file readable', async () => {
    const [ok, broken] = await Promise.all([runOnSim([ID]), runOnSim([ID], { breaks: ['volume-file-acl'] })]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary}`).to.equal('supported');
    expect(r.summary).to.match(/reads "value-2" and its ACL .* is mode 0775/);
    expect(JSON.stringify(r.evidence)).to.contain('Get-Acl -LiteralPath');
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.summary).to.match(/mode 0770, not the Windows default 0775/);
  });
});
