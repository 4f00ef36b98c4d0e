// The disruptive checks' pods, built in code rather than rendered from fixtures: bound to the
// node, tolerating every taint, and pulling from --image-registry as fixtures do (an air-gapped
// cluster reaches no public registry).

import { expect } from 'chai';
import { AGNHOST, HOSTPROCESS_IMAGE, podOnNode, shutdownPod } from '../../../../lib/catalog/node/hostShutdown.ts';
import type { CheckContext } from '../../../../lib/catalog/types.ts';

const ctxWith = (imageRegistry?: string) =>
  ({ namespace: 'ns', labels: { 'wincheck.io/run-id': 'r1' }, options: { imageRegistry, timeouts: {} } }) as unknown as CheckContext;

describe('disruptive checks: pods built in code', () => {
  it('take their images from --image-registry, init containers too, as a fixture would', () => {
    const p = podOnNode(ctxWith('mirror.local:5000/k8s'), 'win-1', 'p', {
      initContainers: [{ name: 'i', image: HOSTPROCESS_IMAGE }],
      containers: [{ name: 'c', image: AGNHOST }],
    });
    expect(p.spec?.containers.map(c => c.image)).to.deep.equal(['mirror.local:5000/k8s/e2e-test-images/agnhost:2.52']);
    expect(p.spec?.initContainers?.map(c => c.image)).to.deep.equal(['mirror.local:5000/k8s/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0']);
    expect(p.spec?.nodeName).to.equal('win-1');
    expect(p.metadata?.labels).to.deep.equal({ 'wincheck.io/run-id': 'r1' });
    expect(shutdownPod(ctxWith('m.local'), 'win-1', 'reboot-host', 30).spec?.containers[0].image).to.equal(
      'm.local/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0',
    );
  });

  it('keep the upstream references without a registry', () => {
    const p = podOnNode(ctxWith(), 'win-1', 'p', { containers: [{ name: 'c', image: AGNHOST }] });
    expect(p.spec?.containers[0].image).to.equal(AGNHOST);
    expect(p.spec?.initContainers).to.equal(undefined);
  });
});
