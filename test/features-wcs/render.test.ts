// Rendering of the Workloads/Configuration/Storage fixtures per node build and cluster.

import { expect } from 'chai';
import type { KubernetesObject, V1PersistentVolumeClaim, V1Pod, V1Secret, V1Service, V1StatefulSet, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { loadCatalog } from '../../lib/catalog/registry.ts';
import type { Feature } from '../../lib/catalog/types.ts';
import { renderFixture } from '../../lib/fixtures/render.ts';
import type { FixtureSpec, RenderContext } from '../../lib/fixtures/types.ts';

const ctx = (extra: Partial<RenderContext> = {}): RenderContext => ({
  runId: 'rwcs001', namespace: 'wincheck-rwcs001', windowsBuild: '10.0.20348', windowsNode: 'win-1',
  multipleBuilds: false, windowsTaints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
  secrets: { username: 'wc-0123456789ab', password: 'S3cr3t-value-xyz' }, ...extra,
});
const MINE = /^(work\.(statefulset|multi-container|exec-logs|port-forward|os-mismatch|env-colon-name|hpa)|cfg\.(secret-volume|configmap-volume|secret-defaultmode|secret-at-rest)|stor\.)/;
const kind = <T extends KubernetesObject>(objs: KubernetesObject[], k: string) => objs.find(o => o.kind === k) as T;
const podSpecs = (objs: KubernetesObject[]) => objs.flatMap(o => {
  if (o.kind === 'Pod') return [(o as V1Pod).spec!];
  const t = (o as { spec?: { template?: { spec?: V1Pod['spec'] } } }).spec?.template?.spec;
  return t ? [t] : [];
});

let specs: { feature: Feature; spec: FixtureSpec }[];

describe('workloads/config/storage fixture rendering', () => {
  before(async () => {
    specs = (await loadCatalog()).filter(f => MINE.test(f.id)).flatMap(feature => feature.fixtures.map(spec => ({ feature, spec })));
  });

  for (const [build, tag] of [['10.0.17763', 'ltsc2019'], ['10.0.20348', 'ltsc2022'], ['10.0.26100', 'ltsc2025']]) {
    it(`every fixture renders for build ${build}: run labels, namespace, tolerations, images for ${tag}`, () => {
      expect(specs.length).to.be.greaterThan(15);
      for (const { feature, spec } of specs) {
        const r = renderFixture(spec, ctx({ windowsBuild: build }));
        const where = `${feature.id}/${spec.id}`;
        expect(r.objects.length, where).to.be.greaterThan(0);
        for (const o of r.objects) {
          expect(o.metadata!.labels, where).to.include({ 'wincheck.io/run-id': 'rwcs001', 'wincheck.io/fixture': spec.id });
          expect(o.metadata!.namespace, where).to.equal('wincheck-rwcs001');
        }
        for (const p of podSpecs(r.objects)) {
          for (const c of p.containers) {
            expect(c.image, where).to.not.contain('{{');
            if (/windows\/servercore:/.test(c.image!)) expect(c.image, where).to.match(new RegExp(`:${tag}$`));
          }
          if (spec.os === 'windows') {
            expect(p.tolerations, where).to.deep.include({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
            expect(p.nodeSelector, where).to.include({ 'kubernetes.io/os': 'windows' });
          } else {
            expect(p.nodeSelector, where).to.include({ 'kubernetes.io/os': 'linux' });
          }
        }
      }
    });
  }

  it('pins to the target build when the cluster has several builds', () => {
    for (const { spec } of specs.filter(s => s.spec.os === 'windows')) {
      const r = renderFixture(spec, ctx({ multipleBuilds: true, windowsBuild: '10.0.17763' }));
      for (const p of podSpecs(r.objects)) expect(p.nodeSelector, spec.id).to.include({ 'node.kubernetes.io/windows-build': '10.0.17763' });
    }
  });

  it('statefulset: headless service named as the StatefulSet, 2 replicas, netexec on 8080', () => {
    const r = renderFixture({ id: 'statefulset', template: 'statefulset', os: 'windows' }, ctx());
    const svc = kind<V1Service>(r.objects, 'Service');
    const sts = kind<V1StatefulSet>(r.objects, 'StatefulSet');
    expect(svc.spec!.clusterIP).to.equal('None');
    expect(sts.spec!.serviceName).to.equal(svc.metadata!.name);
    expect(sts.spec!.replicas).to.equal(2);
    expect(sts.spec!.template.metadata!.labels).to.include({ app: 'statefulset', 'wincheck.io/run-id': 'rwcs001' });
    expect(sts.spec!.template.spec!.containers[0].args).to.include('--http-port=8080');
  });

  it('hpa: autoscaling/v2 on CPU targeting the Deployment, whose pods request CPU', () => {
    const r = renderFixture({ id: 'hpa', template: 'hpa', os: 'windows' }, ctx());
    const hpa = kind<V2HorizontalPodAutoscaler>(r.objects, 'HorizontalPodAutoscaler');
    expect(hpa.apiVersion).to.equal('autoscaling/v2');
    expect(hpa.spec!.scaleTargetRef).to.include({ kind: 'Deployment', name: 'hpa' });
    expect(podSpecs(r.objects)[0].containers[0].resources!.requests).to.include({ cpu: '100m' });
  });

  it('env-colon: the .NET-style name and the seed\'s "__" workaround', () => {
    const env = kind<V1Pod>(renderFixture({ id: 'env-colon', template: 'env-colon', os: 'windows' }, ctx()).objects, 'Pod').spec!.containers[0].env!;
    expect(env.map(e => e.name)).to.deep.equal(['Logging:LogLevel:Default', 'Logging__LogLevel__Default']);
  });

  it('secret fixtures carry the per-run values as base64 data, never the seed\'s values', () => {
    const r = renderFixture({ id: 'secret-volume', template: 'secret-volume', os: 'windows' }, ctx());
    const s = kind<V1Secret>(r.objects, 'Secret');
    expect(Buffer.from(s.data!.username, 'base64').toString()).to.equal('wc-0123456789ab');
    expect(Buffer.from(s.data!.password, 'base64').toString()).to.equal('S3cr3t-value-xyz');
    expect((s as { stringData?: unknown }).stringData).to.equal(undefined);
    expect(kind<V1Pod>(r.objects, 'Pod').spec!.volumes![0].secret!.secretName).to.equal('secret-volume');
  });

  it('secret-defaultmode is 0440 (288), not YAML 1.2\'s decimal 440', () => {
    const p = kind<V1Pod>(renderFixture({ id: 'secret-defaultmode', template: 'secret-defaultmode', os: 'windows' }, ctx()).objects, 'Pod');
    expect(p.spec!.volumes![0].secret!.defaultMode).to.equal(0o440);
  });

  it('hostpath: one host directory in both path styles, the forward-slash mount read-only', () => {
    const p = kind<V1Pod>(renderFixture({ id: 'hostpath', template: 'hostpath-styles', os: 'windows' }, ctx()).objects, 'Pod');
    expect(p.spec!.volumes!.map(v => v.hostPath!.path)).to.deep.equal(['C:\\etc\\foo', 'C:/etc/foo']);
    expect(p.spec!.containers[0].volumeMounts).to.deep.include({ name: 'slash', mountPath: 'C:/etc/foo-ro', readOnly: true });
    expect(p.spec!.containers[0].volumeMounts).to.deep.include({ name: 'backslash', mountPath: 'C:\\etc\\foo' });
  });

  it("emptydir: the seed's /cache and C:/scratch in two containers", () => {
    const p = kind<V1Pod>(renderFixture({ id: 'emptydir', template: 'emptydir', os: 'windows' }, ctx()).objects, 'Pod');
    expect(p.spec!.containers.map(c => c.name)).to.deep.equal(['writer', 'reader']);
    for (const c of p.spec!.containers) expect(c.volumeMounts!.map(m => m.mountPath)).to.deep.equal(['/cache', 'C:/scratch']);
  });

  it('storage limitations: memory medium, subPath, readOnlyRootFilesystem without spec.os, HostToContainer, Block', () => {
    const pod = (id: string, template = id) => kind<V1Pod>(renderFixture({ id, template, os: 'windows' }, ctx()).objects, 'Pod');
    expect(pod('emptydir-memory').spec!.volumes![0].emptyDir!.medium).to.equal('Memory');
    expect(pod('subpath').spec!.containers[0].volumeMounts!.find(m => m.subPath)).to.include({ subPath: 'sub', mountPath: 'C:\\sub' });
    const ro = pod('readonly-rootfs');
    expect(ro.spec!.os).to.equal(undefined);
    expect(ro.spec!.containers[0].securityContext!.readOnlyRootFilesystem).to.equal(true);
    const prop = pod('mount-propagation');
    expect(prop.spec!.containers[0].volumeMounts![0].mountPropagation).to.equal('HostToContainer');
    expect(prop.spec!.volumes![0].hostPath!.path).to.equal('C:\\wincheck\\propagation-rwcs001');
    const block = renderFixture({ id: 'block-volume', template: 'block-volume', os: 'windows' }, ctx()).objects;
    expect(kind<V1PersistentVolumeClaim>(block, 'PersistentVolumeClaim').spec!.volumeMode).to.equal('Block');
    expect(kind<V1Pod>(block, 'Pod').spec!.containers[0].volumeDevices![0].devicePath).to.equal('\\\\.\\PhysicalDrive9');
  });

  it('pvc: no storageClassName, so the default class provisions it', () => {
    const claim = kind<V1PersistentVolumeClaim>(renderFixture({ id: 'pvc', template: 'pvc', os: 'windows' }, ctx()).objects, 'PersistentVolumeClaim');
    expect(claim.spec!.storageClassName).to.equal(undefined);
    expect(claim.spec!.resources!.requests).to.include({ storage: '1Gi' });
  });

  it('an image mirror rewrites every image of these fixtures', () => {
    for (const { spec } of specs) {
      const r = renderFixture(spec, ctx({ imageRegistry: 'mirror.local:5000' }));
      for (const p of podSpecs(r.objects)) for (const c of p.containers) expect(c.image, spec.id).to.match(/^mirror\.local:5000\//);
    }
  });
});
