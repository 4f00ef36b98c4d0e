// A node's status.images, as the kubelet reports them: the images present on the node, largest
// first, named by digest and by tag; the harness's pre-pull skips what a node already has.

import { expect } from 'chai';
import type { V1Node } from '@kubernetes/client-node';
import { createPod, isReady, startFixture, waitPod, WIN, type Fixture } from '../../support/runtime.ts';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

function nodeImages(f: Fixture, timeoutMs = 10_000): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const read = () => ((f.store.tryGet('nodes', undefined, WIN) as unknown as V1Node | undefined)?.status?.images ?? []).map(i => i.names ?? []);
    const t = setTimeout(() => {
      w.stop();
      reject(new Error(`no image on node ${WIN} after ${timeoutMs} ms: ${JSON.stringify(read())}`));
    }, timeoutMs);
    const check = () => {
      const now = read();
      if (now.some(n => n.includes(IIS))) {
        clearTimeout(t);
        w.stop();
        resolve(now);
      }
    };
    const w = f.store.watch('nodes', { fieldSelector: `metadata.name=${WIN}` }, check);
  });
}

describe('sim runtime: node status.images', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    await f.stop();
  });

  it('lists the images a pod pulled, and the sandbox image, by digest and tag, largest first', async () => {
    f.store.create('nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: WIN }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    const seen = nodeImages(f);
    createPod(f.store, WIN, 'iis', { containers: [{ name: 'iis', image: IIS }] });
    await waitPod(f.store, 'iis', 'Ready', isReady);
    const images = await seen;
    const iis = images.find(n => n.includes(IIS))!;
    expect(iis[0]).to.match(/^mcr\.microsoft\.com\/windows\/servercore\/iis@sha256:[0-9a-f]{64}$/);
    expect(
      images.some(n => n.includes('registry.k8s.io/pause:3.10')),
      JSON.stringify(images),
    ).to.equal(true);
    const node = f.store.get('nodes', undefined, WIN) as unknown as V1Node;
    const sizes = node.status!.images!.map(i => i.sizeBytes ?? 0);
    expect(sizes).to.deep.equal([...sizes].sort((a, b) => b - a));
  });
});
