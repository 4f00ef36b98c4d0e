// Fixture rendering per cluster: image tags per build, pinning, tolerations, labels, mirror, secrets.

import { expect } from 'chai';
import type { KubernetesObject, V1DaemonSet, V1Pod, V1RuntimeClass, V1Secret } from '@kubernetes/client-node';
import { buildNumberOf, ltscTagFor, NoImageError, rewriteImage } from '../../lib/fixtures/images.ts';
import { renderFixture } from '../../lib/fixtures/render.ts';
import type { RenderContext } from '../../lib/fixtures/types.ts';
import { renderContextFor } from '../../lib/run/deploy.ts';
import { cluster, linuxNode, winNode } from './clusterFixture.ts';

const ctx = (extra: Partial<RenderContext> = {}): RenderContext => ({
  runId: 'rabc123', namespace: 'wincheck-rabc123', windowsBuild: '10.0.20348', windowsNode: 'win-1',
  multipleBuilds: false, windowsTaints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
  secrets: { username: 'wc-0123456789ab', password: 'S3cr3t-value-xyz' }, ...extra,
});
const pod = (objs: KubernetesObject[]) => objs.find(o => o.kind === 'Pod') as V1Pod;

describe('fixture rendering', () => {
  it('maps Windows builds to LTSC tags', () => {
    expect(ltscTagFor('10.0.17763')).to.equal('ltsc2019');
    expect(ltscTagFor('10.0.20348.2582')).to.equal('ltsc2022');
    expect(ltscTagFor('10.0.26100')).to.equal('ltsc2025');
    expect(() => ltscTagFor('10.0.19041')).to.throw(NoImageError, /no mcr.microsoft.com\/windows\/servercore image is published for Windows build 10.0.19041/);
    // 23H2 has no tag of its own: it runs ltsc2022 images (stable ABI), and rendering never throws.
    expect(ltscTagFor('10.0.25398.1')).to.equal('ltsc2022');
    expect(buildNumberOf('10.0.17763.1')).to.equal(17763);
  });

  for (const [build, tag] of [['10.0.17763', 'ltsc2019'], ['10.0.20348', 'ltsc2022'], ['10.0.26100', 'ltsc2025']]) {
    it(`renders the IIS pod for build ${build} with the ${tag} image`, () => {
      const r = renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows' }, ctx({ windowsBuild: build }));
      expect(pod(r.objects).spec!.containers[0].image).to.equal(`mcr.microsoft.com/windows/servercore/iis:windowsservercore-${tag}`);
      expect(r.windowsBuild).to.equal(build);
    });
  }

  it('labels every object and pod template with the run id, in the run namespace', () => {
    const r = renderFixture({ id: 'daemonset', template: 'daemonset', os: 'windows', pin: 'none' }, ctx());
    const ds = r.objects[0] as V1DaemonSet;
    expect(ds.metadata!.labels).to.include({ 'wincheck.io/run-id': 'rabc123', 'wincheck.io/fixture': 'daemonset' });
    expect(ds.metadata!.namespace).to.equal('wincheck-rabc123');
    expect(ds.spec!.template.metadata!.labels).to.include({ 'wincheck.io/run-id': 'rabc123', app: 'daemonset' });
  });

  it('tolerates the discovered Windows taints, unless the fixture says not to', () => {
    const tolerated = pod(renderFixture({ id: 'p', template: 'windows-pause', os: 'windows', params: { selectorKey: 'kubernetes.io/os' } }, ctx()).objects);
    expect(tolerated.spec!.tolerations).to.deep.equal([{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
    const bare = pod(renderFixture({ id: 'p', template: 'windows-pause', os: 'windows', tolerate: false, params: { selectorKey: 'kubernetes.io/os' } }, ctx()).objects);
    expect(bare.spec!.tolerations).to.equal(undefined);
  });

  it('pins to the build label only when the cluster has several builds; nodeName on request', () => {
    const one = pod(renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows' }, ctx()).objects);
    expect(one.spec!.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'windows' });
    const several = pod(renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows' }, ctx({ multipleBuilds: true })).objects);
    expect(several.spec!.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' });
    const node = renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows', pin: 'node' }, ctx());
    expect(pod(node.objects).spec!.nodeName).to.equal('win-1');
    expect(node.node).to.equal('win-1');
  });

  it('makes Linux helpers select Linux and tolerate nothing', () => {
    const helper = pod(renderFixture({ id: 'helper', template: 'linux-helper', os: 'linux' }, ctx()).objects);
    expect(helper.spec!.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'linux' });
    expect(helper.spec!.tolerations).to.equal(undefined);
  });

  it('rewrites every image to the --image-registry mirror', () => {
    expect(rewriteImage('mcr.microsoft.com/windows/servercore:ltsc2022', 'mirror.local:5000')).to.equal('mirror.local:5000/windows/servercore:ltsc2022');
    expect(rewriteImage('registry.k8s.io/e2e-test-images/agnhost:2.52', 'mirror.local/')).to.equal('mirror.local/e2e-test-images/agnhost:2.52');
    expect(rewriteImage('redis:3.0', 'mirror.local')).to.equal('mirror.local/library/redis:3.0');
    expect(rewriteImage('bitnami/redis', 'm.io')).to.equal('m.io/bitnami/redis');
    expect(rewriteImage('redis', undefined)).to.equal('redis');
    const p = pod(renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows' }, ctx({ imageRegistry: 'mirror.local' })).objects);
    expect(p.spec!.containers[0].image).to.equal('mirror.local/windows/servercore/iis:windowsservercore-ltsc2022');
  });

  it('fills secrets from the run values as base64 data, never stringData', () => {
    const r = renderFixture({ id: 'secret-env', template: 'secret-pod', os: 'windows' }, ctx());
    const secret = r.objects.find(o => o.kind === 'Secret') as V1Secret;
    expect(secret.stringData).to.equal(undefined);
    expect(Buffer.from(secret.data!.username, 'base64').toString()).to.equal('wc-0123456789ab');
    expect(Buffer.from(secret.data!.password, 'base64').toString()).to.equal('S3cr3t-value-xyz');
  });

  it('gives a RuntimeClass the Windows tolerations and no namespace, and expands params', () => {
    const r = renderFixture({ id: 'rc', template: 'runtimeclass-windows', os: 'windows', tolerate: false, pin: 'none', params: { runtimeClass: 'wincheck-windows-{{runId}}' } }, ctx());
    const rc = r.objects[0] as V1RuntimeClass;
    expect(rc.metadata!.name).to.equal('wincheck-windows-rabc123');
    expect(rc.metadata!.namespace).to.equal(undefined);
    expect(rc.scheduling!.tolerations).to.have.length(1);
    expect(pod(r.objects).spec!.runtimeClassName).to.equal('wincheck-windows-rabc123');
    expect(pod(r.objects).spec!.tolerations).to.equal(undefined);
  });

  it('names an unknown placeholder', () => {
    expect(() => renderFixture({ id: 'x', template: 'windows-pause', os: 'windows' }, ctx())).to.throw('fixture x (template windows-pause): unknown placeholder {{params.selectorKey}}');
  });

  it('derives the render context from discovery: most common build, several builds, taints', () => {
    const c = cluster({ nodes: [linuxNode('l'), winNode('w19', '10.0.17763'), winNode('w22a'), winNode('w22b')] });
    const r = renderContextFor({ runId: 'r1', namespace: 'wincheck-r1', secrets: {}, config: { imageRegistry: undefined } as never }, c);
    expect(r.windowsBuild).to.equal('10.0.20348');
    expect(r.windowsNode).to.equal('w22a');
    expect(r.multipleBuilds).to.equal(true);
    expect(r.windowsTaints).to.deep.equal([{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
  });
});
