// What users read about the catalog: docs/features.md is `wincheck list -o markdown`, every
// expectation cites upstream documents (URL and docs version) and never our private notes, and
// the list formats are what they say they are.

import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { formatCatalog } from '../../../lib/catalog/listing.ts';
import { loadCatalog } from '../../../lib/catalog/registry.ts';
import { cite, formatSources, formatSourcesMarkdown, sources } from '../../../lib/facts/sources.ts';
import type { Feature } from '../../../lib/catalog/types.ts';
import type { ClusterInfo } from '../../../lib/discovery/types.ts';
import { cluster, linuxNode, winNode } from '../../support/clusterFixture.ts';
import { ROOT, wincheck } from '../../support/cli.ts';

const PRIVATE = /seed 0\d\d|FEATURES\.md|WINDOWS-COMMANDS\.md/i;

/** Cluster shapes that take the expectations down their different branches. */
function shapes(): ClusterInfo[] {
  const w2019 = (n: string) => winNode(n, '10.0.17763', { osImage: 'Windows Server 2019 Datacenter' });
  return [
    cluster(),
    cluster({ nodes: [linuxNode('l'), w2019('w1'), w2019('w2')], version: { gitVersion: 'v1.27.3', major: 1, minor: 27 } }),
    cluster({
      nodes: [linuxNode('l'), winNode('w1', '10.0.26100')],
      metricsServer: false,
      loadBalancer: 'yes',
      dualStack: true,
      hypervRuntimeClass: 'hyperv',
      runtimeClasses: [{ name: 'hyperv', handler: 'runhcs-wcow-hypervisor' }],
      defaultStorageClass: 'standard',
      network: { cni: 'calico', kubeProxyDaemonSets: ['kube-proxy-windows'], dsr: true, notes: [] },
    }),
    cluster({
      nodes: [linuxNode('l')],
      nodeAccess: { hostProcess: false, hostProcessReason: 'no', ssh: false, sshReason: 'no' },
      ipv6Only: true,
      network: { cni: undefined, kubeProxyDaemonSets: [], dsr: false, notes: [] },
    }),
  ];
}

describe('catalog docs and sources', function () {
  this.timeout(60_000);
  let catalog: Feature[];
  before(async () => {
    catalog = await loadCatalog();
  });

  it('docs/features.md is exactly `wincheck list -o markdown` (regenerate: npm run docs)', () => {
    const file = join(ROOT, 'docs/features.md');
    expect(existsSync(file), 'docs/features.md is missing: npm run docs').to.equal(true);
    expect(readFileSync(file, 'utf8').trimEnd(), 'docs/features.md is stale: run "npm run docs" and commit it').to.equal(formatCatalog(catalog, 'markdown'));
  });

  it("every feature's source, on every cluster shape, is upstream documents with URL and docs version", () => {
    const problems: string[] = [];
    for (const c of shapes()) {
      for (const f of catalog) {
        const { source } = f.expect(c);
        if (!source.length) problems.push(`${f.id}: its expectation cites no document`);
        for (const cite of source) {
          // A URL, or a doc checked in with wincheck (docs/images.md) that the user has.
          const ours = /^docs\/[\w.-]+\.md$/.test(cite.url);
          if (!/^https:\/\/\S+$/.test(cite.url) && !(ours && existsSync(join(ROOT, cite.url)))) problems.push(`${f.id}: ${cite.title} has no URL`);
          // A release (v1.33), our own doc's version, or `main` for a repository cited at its default branch
          // (windows-operational-readiness publishes its specifications there, without releases of them;
          // an upstream e2e file whose first release is not known is cited at kubernetes' master).
          if (
            !/^(v\d+\.\d+|wincheck \S+)$/.test(cite.version) &&
            !(['main', 'master'].includes(cite.version) && new RegExp(`^https://github\\.com/[\\w.-]+/[\\w.-]+/blob/${cite.version}/`).test(cite.url))
          )
            problems.push(`${f.id}: ${cite.title} has no docs version`);
        }
        for (const shown of [formatSources(source), formatSourcesMarkdown(source), f.expect(c).reason, f.title])
          if (PRIVATE.test(shown)) problems.push(`${f.id}: a report would show "${shown}"`);
      }
    }
    expect([...new Set(problems)]).to.deep.equal([]);
  });

  it('cites the translated pages by their upstream versions, each document once', () => {
    expect(sources(cite.v122Intro('session affinity table'), cite.intro(), cite.v122Intro('session affinity table'))).to.deep.equal([
      {
        title: 'Intro to Windows support in Kubernetes',
        version: 'v1.22',
        url: 'https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/',
        detail: 'session affinity table',
      },
      { title: 'Windows containers in Kubernetes', version: 'v1.33', url: 'https://kubernetes.io/docs/concepts/windows/intro/' },
    ]);
    expect(formatSources([cite.e2eTest('dns.go')])).to.equal(
      'Kubernetes e2e test test/e2e/windows/dns.go (v1.33, https://github.com/kubernetes/kubernetes/blob/release-1.33/test/e2e/windows/dns.go)',
    );
  });

  it('list -o yaml is YAML, the same list as -o json; -o markdown has no leftover escapes', async () => {
    const [json, yaml, md] = await Promise.all(['json', 'yaml', 'markdown'].map(o => wincheck(['list', '-o', o, '--suite', 'storage'])));
    expect(yaml.exitCode, yaml.all).to.equal(0);
    expect(parseYaml(yaml.stdout)).to.deep.equal(JSON.parse(json.stdout));
    expect(md.stdout).to.contain('| `stor.hostpath` | hostPath volumes: C:\\etc\\foo and C:/etc/foo path styles').and.not.contain('\\\\');
  });

  it('an unknown -o is bad usage (exit 2), not silently text', async () => {
    for (const args of [
      ['list', '-o', 'xml'],
      ['discover', '-o', 'markdown'],
    ]) {
      const r = await wincheck(args);
      expect(r.exitCode, args.join(' ')).to.equal(2);
      expect(r.stderr).to.contain('Allowed choices are');
    }
  });

  it('discover --sim -o yaml prints the simulated cluster as YAML', async () => {
    const r = await wincheck(['discover', '--sim', 'ws2019', '-o', 'yaml']);
    expect(r.exitCode, r.all).to.equal(0);
    const info = parseYaml(r.stdout) as ClusterInfo;
    expect(info.simulated).to.deep.equal({ profile: 'ws2019' });
    expect(info.nodes.filter(n => n.os === 'windows').map(n => n.windowsBuild)).to.include('10.0.17763');
  });

  it('run --help names the sim profiles and the --timeout default; --timeout without a unit is an error', async () => {
    const help = await wincheck(['run', '--help']);
    expect(help.stdout.replace(/\s+/g, ' '))
      .to.match(/--sim \[profile\].*default, dual-stack, .*ws2019/)
      .and.match(/--timeout <duration>.*\(default: none/);
    const r = await wincheck(['run', '--sim', '--timeout', '20']);
    expect(r.exitCode).to.equal(2);
    expect(r.stderr.trim()).to.equal('Error: --timeout "20" is not a duration with a unit (e.g. 30m, 90s, 1h30m)');
  });

  it('LICENSE is the ISC licence package.json declares', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.license).to.equal('ISC');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8'))
      .to.match(/^ISC License/)
      .and.contain('Permission to use, copy, modify, and/or distribute this software');
  });
});
