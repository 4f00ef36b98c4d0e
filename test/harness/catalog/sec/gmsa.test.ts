// sec.gmsa-credspec: upstream's reading of `nltest /PARENTDOMAIN` (the output starts with the
// domain and says the command completed) and the expectation per Kubernetes version.

import { expect } from 'chai';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import { reportsDomain } from '../../../../lib/catalog/sec/gmsa.ts';
import { cluster } from '../../../support/clusterFixture.ts';

describe('sec.gmsa-credspec', () => {
  it('reads nltest as upstream gmsa_kubelet.go does', () => {
    expect(reportsDomain('acme.com. (1)\r\nThe command completed successfully\r\n', 'acme.com')).to.equal(true);
    expect(reportsDomain('contoso.org. (1)\r\nThe command completed successfully\r\n', 'acme.com')).to.equal(false);
    expect(reportsDomain('Getting parent domain failed: Status = 1355 0x54b ERROR_NO_SUCH_DOMAIN\r\n', 'acme.com')).to.equal(false);
    expect(reportsDomain('acme.com. (1)\r\n', 'acme.com')).to.equal(false);
  });

  it('supported from 1.18 (GA), citing the kubelet spec', async () => {
    const f = (await loadCatalog()).find(x => x.id === 'sec.gmsa-credspec')!;
    const e = f.expect(cluster());
    expect(e.expected).to.equal('supported');
    expect(e.source.map(s => s.url).join(' ')).to.contain('gmsa_kubelet.go');
    expect(f.expect(cluster({ version: { gitVersion: 'v1.17.4', major: 1, minor: 17 } })).expected).to.equal('n/a');
  });
});
