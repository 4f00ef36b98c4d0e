// work.stop-signal-windows: the expectation by version and how a dry run's answer is read.

import { expect } from 'chai';
import { ApiException, type V1Pod } from '@kubernetes/client-node';
import { features, signalVerdict } from '../../../../lib/catalog/work/stopSignal.ts';
import { cluster } from '../../../support/clusterFixture.ts';

const feature = features[0];
const v = (minor: number) => ({ gitVersion: `v1.${minor}.0`, major: 1, minor });
const pod = (stopSignal?: string): V1Pod => ({ spec: { containers: [{ name: 'c', lifecycle: stopSignal ? { stopSignal } : {} }] } });
const refusal = (code: number, field: string) =>
  new ApiException(code, 'refused', JSON.stringify({ kind: 'Status', code, details: { causes: [{ field, message: 'Unsupported value: "SIGQUIT"' }] } }), {});

describe('work.stop-signal-windows', () => {
  it('n/a before 1.33, supported from 1.33 (the gate is told at run time), citing KEP-4960 and the upstream spec', () => {
    expect(feature.expect(cluster({ version: v(32) })).expected).to.equal('n/a');
    const e = feature.expect(cluster({ version: v(33) }));
    expect(e.expected).to.equal('supported');
    expect(JSON.stringify(e.source)).to.contain('container_stop_signals.go').and.to.contain('KEP-4960');
  });

  it('kept, dropped, a 422 naming the field, anything else', () => {
    expect(signalVerdict(pod('SIGTERM'), undefined).verdict).to.equal('kept');
    expect(signalVerdict(pod(), undefined).verdict).to.equal('dropped');
    expect(signalVerdict(undefined, refusal(422, 'spec.containers[0].lifecycle.stopSignal')).verdict).to.equal('refused-naming-field');
    expect(signalVerdict(undefined, refusal(422, 'spec.os.name')).verdict).to.equal('refused-otherwise');
    expect(signalVerdict(undefined, refusal(403, 'spec.containers[0].lifecycle.stopSignal')).verdict).to.equal('refused-otherwise');
  });
});
