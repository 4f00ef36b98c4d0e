// The diagnostics' size bound and the node logs' time window.

import { expect } from 'chai';
import { FILE_LIMIT, FOLDER_LIMIT, FolderBudget, keepTail } from '../../../../lib/run/diagnostics/bound.ts';
import { lineTime, serviceLogScript, withinWindow } from '../../../../lib/run/diagnostics/nodeLogs.ts';

describe('harness: diagnostics bounds and windows', () => {
  it('a file keeps its last FILE_LIMIT bytes from a line start, with a marker', () => {
    const text = Array.from({ length: 40_000 }, (_, i) => `line ${i}`).join('\n');
    const kept = keepTail(text);
    expect(Buffer.byteLength(kept)).to.be.below(FILE_LIMIT + 200);
    expect(kept).to.match(/^\[wincheck: \d+ bytes cut here; each diagnostics file keeps its last 262144 bytes\]\nline \d+\n/);
    expect(kept.endsWith('line 39999')).to.equal(true);
    expect(keepTail('short')).to.equal('short');
  });

  it('a folder past its bound writes markers only', () => {
    const budget = new FolderBudget();
    const big = 'x'.repeat(FILE_LIMIT - 10);
    let written = 0;
    for (let i = 0; i < 12; i++) written += Buffer.byteLength(budget.take(big));
    expect(written).to.be.at.most(FOLDER_LIMIT + 12 * 100);
    const small = new FolderBudget(100);
    expect(small.take('x'.repeat(90))).to.equal('x'.repeat(90));
    expect(small.take('y'.repeat(20))).to.equal('[wincheck: not kept: this folder reached its bound of 100 bytes]\n');
  });

  it('reads klog and logrus times, and keeps the lines of the window with their continuations', () => {
    const year = 2026;
    expect(lineTime('I1202 21:03:47.123456    4624 event.go:389] "Event occurred"', year)).to.equal(Date.UTC(2026, 11, 2, 21, 3, 47, 123));
    expect(lineTime('time="2026-12-02T21:03:47.5Z" level=info msg="x"', year)).to.equal(Date.UTC(2026, 11, 2, 21, 3, 47, 500));
    const w = { from: Date.UTC(2026, 11, 2, 21, 10, 0), to: Date.UTC(2026, 11, 2, 21, 11, 0) };
    const log = [
      '# C:\\var\\log\\kubelet\\kubelet.log',
      'I1202 21:00:00.000000 1 a.go:1] old',
      'I1202 21:10:30.000000 1 a.go:1] inside',
      '  continuation of inside',
      'I1202 21:20:00.000000 1 a.go:1] later',
    ].join('\n');
    expect(withinWindow(log, w).split('\n')).to.deep.equal([
      '# C:\\var\\log\\kubelet\\kubelet.log',
      'I1202 21:10:30.000000 1 a.go:1] inside',
      '  continuation of inside',
    ]);
    expect(withinWindow('I1202 01:00:00.000000 1 a.go:1] other zone', w)).to.match(/^\[wincheck: no line between .*\nI1202 01:00:00/);
    expect(withinWindow('no times here', w)).to.equal('no times here');
  });

  it('reads the newest file of C:\\var\\log\\<service>, else the service events of the window', () => {
    const s = serviceLogScript('kube-proxy', { from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 1, 0, 1) });
    expect(s).to.include("Get-ChildItem -Path 'C:\\var\\log\\kube-proxy' -File");
    expect(s).to.include("ProviderName = 'kube-proxy'; StartTime = [datetime]'2025-12-31T23:59:00.000Z'");
  });
});
