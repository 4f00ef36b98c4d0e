// report.html as a maintainer sees it: a run on the mixed-build sim with IIS broken on purpose,
// opened in headless Chromium (Debian's /usr/bin/chromium through playwright-core; no browser
// download). Checks what the page shows: the counts, the regressed row and its evidence, the
// support matrix's build columns, the connectivity matrix cells, and that it loads nothing.

import { expect } from 'chai';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { NET_PATHS } from '../../../lib/report/connectivityMatrix.ts';
import type { Outcome } from '../../../lib/catalog/types.ts';
import { splitInstanceId } from '../../../lib/report/buildTable.ts';
import { CELL_WORD } from '../../../lib/report/connectivityMatrix.ts';
import { anchorOf, buildOfResult } from '../../../lib/report/html.ts';

/** The connectivity matrix shows a cell's worst word. */
const ORDER = ['failed', 'error', 'ok (lifted)', 'limited', 'ok', 'n/a'];
import { ROOT } from '../../support/cli.ts';
import { FAST_NET, runOnSim, type SimRun } from '../../support/simRun.ts';

const CHROMIUM = '/usr/bin/chromium';
const FEATURES = [
  'sched.os-selector',
  'work.iis-pod',
  'cfg.secret-env',
  'stor.emptydir-memory',
  'net.w2l',
  'net.w2w-same-node',
  'net.icmp-egress',
  'net.dual-stack',
];

describe('report.html in headless Chromium (mixed-build sim, IIS broken)', function () {
  this.timeout(300_000);
  let run: SimRun;
  let browser: Browser | undefined;
  let page: Page;
  const external: string[] = [];

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`    (skipped: ${CHROMIUM} is not installed; .ci/run installs Debian's chromium)`);
      this.skip();
    }
    run = await runOnSim(FEATURES, { base: 'mixed-build', breaks: ['iis-serve'], timeouts: FAST_NET });
    const dir = join(ROOT, '.tmp', 'html-report');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'report.html');
    writeFileSync(file, run.html);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('request', req => {
      if (!req.url().startsWith('file:')) external.push(req.url());
    });
    await page.goto(pathToFileURL(file).href);
    // For a human look (and the project's notes): the page as rendered.
    await page.screenshot({ path: join(dir, 'report.png'), fullPage: true });
  });
  after(async () => {
    await browser?.close();
  });

  /** A feature's results: one, or one per Windows build ("<id> [ltsc2022]") on this mixed-build cluster. */
  const resultsOf = (id: string) => [...run.results.values()].filter(r => splitInstanceId(r.id)[0] === id);

  it('loads nothing from the network: one self-contained file', () => {
    expect(external).to.deep.equal([]);
  });

  it('shows the status and the count of every outcome, as results.json has them', async () => {
    expect(await page.textContent('#status')).to.equal('FAILED');
    for (const o of ['supported', 'limited', 'lifted', 'regressed', 'n/a', 'error'] as Outcome[]) {
      const expected = [...run.results.values()].filter(r => r.outcome === o).length;
      expect(await page.textContent(`#counts li[data-outcome="${o}"] b`), o).to.equal(String(expected));
    }
    expect(resultsOf('work.iis-pod').map(r => r.outcome)).to.include('regressed');
  });

  it('the regressed feature is a marked row whose cell links to its folded evidence', async () => {
    const row = page.locator('tr[data-feature="work.iis-pod"]');
    expect(await row.getAttribute('class')).to.equal('bad');
    const regressed = resultsOf('work.iis-pod').filter(r => r.outcome === 'regressed');
    const cell = row.locator('td[data-outcome="regressed"]');
    expect(await cell.count()).to.equal(regressed.length);
    const href = await cell.first().locator('a').getAttribute('href');
    expect(regressed.map(r => `#${anchorOf(r.id)}`)).to.include(href);
    const details = page.locator(`details[id="${href!.slice(1)}"]`);
    expect(await details.evaluate(d => (d as HTMLDetailsElement).open)).to.equal(false);
    expect(await details.locator('pre').first().isVisible()).to.equal(false);
    await details.locator('summary').click();
    expect(await details.evaluate(d => (d as HTMLDetailsElement).open)).to.equal(true);
    expect(await details.innerText())
      .to.contain('Evidence')
      .and.contain('Source');
    await details.screenshot({ path: join(ROOT, '.tmp', 'html-report', 'failure-open.png') });
    // Only what fails (or is lifted) needs attention: the supported ones are not listed there.
    expect(await page.locator('details[id^="f-sched.os-selector"]').count()).to.equal(0);
  });

  it("the support matrix has a column per Windows build, and each result sits in its build's column", async () => {
    const heads = await page.locator('#support-matrix tr').first().locator('th').allInnerTexts();
    expect(heads.join(' | ')).to.contain('Windows Server 2019 (10.0.17763)').and.contain('Windows Server 2022 (10.0.20348)');
    const builds = ['10.0.17763', '10.0.20348', ''];
    for (const id of FEATURES) {
      const rs = resultsOf(id);
      const cells = page.locator(`tr[data-feature="${id}"] td[data-outcome]`);
      expect(await cells.count(), id).to.equal(rs.length);
      for (const r of rs) {
        const cell = page.locator(`tr[data-feature="${id}"] td[data-build="${buildOfResult(r, builds)}"]`);
        expect(await cell.getAttribute('data-outcome'), r.id).to.equal(r.outcome);
      }
    }
    // Build-specific features ran once per build on this cluster: both build columns are filled.
    expect(
      resultsOf('work.iis-pod')
        .map(r => buildOfResult(r, builds))
        .sort(),
    ).to.deep.equal(['10.0.17763', '10.0.20348']);
  });

  it('the connectivity matrix shows each checked path with its word', async () => {
    const cell = (s: string, d: string) => page.locator(`#connectivity-matrix td[data-source="${s}"][data-destination="${d}"]`);
    for (const id of FEATURES.filter(f => NET_PATHS.has(f))) {
      const { from, to } = NET_PATHS.get(id)!;
      const worst = resultsOf(id)
        .map(r => CELL_WORD[r.outcome])
        .sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0];
      expect(await cell(from, to).getAttribute('data-word'), id).to.equal(worst);
      expect(await cell(from, to).innerText(), id).to.contain(id.replace(/^net\./, ''));
    }
    expect(await cell('windows-pod', 'linux-pod').getAttribute('data-word')).to.equal('ok');
  });
});
