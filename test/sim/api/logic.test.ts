// Pure logic of the API layer: strategic merge patch rules, kubectl's pod STATUS
// column and durations, conversions, fault injection, routing.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { strategicMergePatch, mergePatch, applyJsonPatch } from '../../../sim/api/patch.ts';
import { humanDuration, podStatusReason, toTable } from '../../../sim/api/tables.ts';
import { toExternal, toStorage } from '../../../sim/api/convert.ts';
import { findResource } from '../../../sim/api/resources.ts';
import { createFaults } from '../../../sim/api/faults.ts';
import { route } from '../../../sim/api/router.ts';
import { aggregatedAccept } from '../../../sim/api/discovery.ts';
import { decodeProtobufObject } from '../../../sim/api/protobuf.ts';
import { PROFILE } from '../../support/simApi.ts';

describe('sim api: strategic merge patch', () => {
  const podSpec = {
    spec: {
      containers: [
        {
          name: 'a',
          image: 'a:1',
          env: [
            { name: 'X', value: '1' },
            { name: 'Y', value: '2' },
          ],
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          volumeMounts: [{ name: 'v', mountPath: '/v' }],
        },
        { name: 'b', image: 'b:1' },
      ],
      tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
      volumes: [{ name: 'v', emptyDir: {} }],
    },
    metadata: { finalizers: ['a'], labels: { l: '1' } },
  };

  it('merges containers, env, ports and volumes by their merge keys', () => {
    const out = strategicMergePatch(podSpec, {
      spec: {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'Z', value: '3' },
              { name: 'X', value: '9' },
            ],
            ports: [{ containerPort: 443 }],
          },
          { name: 'c', image: 'c:1' },
        ],
        volumes: [{ name: 'w', configMap: { name: 'cm' } }],
      },
    }) as typeof podSpec;
    const a = out.spec.containers[0];
    expect(a.image).to.equal('a:1');
    expect(a.env).to.deep.equal([
      { name: 'X', value: '9' },
      { name: 'Y', value: '2' },
      { name: 'Z', value: '3' },
    ]);
    expect(a.ports).to.deep.equal([{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443 }]);
    expect(out.spec.containers.map(c => c.name)).to.deep.equal(['a', 'b', 'c']);
    expect(out.spec.volumes.map(v => v.name)).to.deep.equal(['v', 'w']);
  });

  it('replaces lists without a merge key (tolerations, args) and deletes with $patch and null', () => {
    const out = strategicMergePatch(podSpec, {
      spec: {
        tolerations: [{ key: 'x', operator: 'Exists' }],
        containers: [
          { name: 'b', $patch: 'delete' },
          { name: 'a', volumeMounts: [{ mountPath: '/v', $patch: 'delete' }] },
        ],
      },
      metadata: { labels: { l: null } },
    }) as typeof podSpec;
    expect(out.spec.tolerations).to.deep.equal([{ key: 'x', operator: 'Exists' }]);
    expect(out.spec.containers.map(c => c.name)).to.deep.equal(['a']);
    expect(out.spec.containers[0].volumeMounts).to.deep.equal([]);
    expect(out.metadata.labels).to.deep.equal({});
  });

  it('honours $patch: replace, $retainKeys, $deleteFromPrimitiveList and ignores $setElementOrder', () => {
    const out = strategicMergePatch(podSpec, {
      spec: {
        '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
        volumes: [{ name: 'v', hostPath: { path: '/h' }, $retainKeys: ['name', 'hostPath'] }],
      },
      metadata: { '$deleteFromPrimitiveList/finalizers': ['a'], annotations: { $patch: 'replace', k: 'v' } },
    }) as typeof podSpec & { metadata: { annotations: unknown } };
    expect(out.spec.volumes).to.deep.equal([{ name: 'v', hostPath: { path: '/h' } }]);
    expect(out.metadata.finalizers).to.deep.equal([]);
    expect(out.metadata.annotations).to.deep.equal({ k: 'v' });
    expect(out.spec.containers.map(c => c.name)).to.deep.equal(['a', 'b']);
    const fin = strategicMergePatch(podSpec, { metadata: { finalizers: ['b', 'a'] } }) as typeof podSpec;
    expect(fin.metadata.finalizers).to.deep.equal(['a', 'b']);
  });

  it('merges Service ports by port, and supports merge and JSON patches', () => {
    const svc = { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
    expect(strategicMergePatch(svc, { spec: { ports: [{ port: 80, nodePort: 30080 }] } })).to.deep.equal({
      spec: { ports: [{ port: 80, targetPort: 8080, nodePort: 30080 }, { port: 443 }] },
    });
    expect(mergePatch({ a: { b: 1, c: 2 }, d: [1] }, { a: { b: null }, d: [2] })).to.deep.equal({ a: { c: 2 }, d: [2] });
    expect(applyJsonPatch({ a: [1] }, [{ op: 'add', path: '/a/-', value: 2 }])).to.deep.equal({ a: [1, 2] });
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).to.throw();
  });
});

describe('sim api: printing', () => {
  it('formats durations like kubectl', () => {
    expect(humanDuration(45_000)).to.equal('45s');
    expect(humanDuration(119_000)).to.equal('119s');
    expect(humanDuration(5 * 60_000 + 3_000)).to.equal('5m3s');
    expect(humanDuration(42 * 60_000)).to.equal('42m');
    expect(humanDuration(5 * 3600_000 + 20 * 60_000)).to.equal('5h20m');
    expect(humanDuration(30 * 3600_000)).to.equal('30h');
    expect(humanDuration(3 * 86400_000 + 4 * 3600_000)).to.equal('3d4h');
    expect(humanDuration(400 * 86400_000)).to.equal('400d');
  });

  const base = (status: V1Pod['status'], extra: Partial<V1Pod> = {}): V1Pod => ({
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c' }] },
    status,
    ...extra,
  });

  it('computes the pod STATUS column as kubectl does', () => {
    expect(
      podStatusReason(
        base({
          phase: 'Pending',
          containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: '', imageID: '', state: { waiting: { reason: 'ContainerCreating' } } }],
        }),
      ),
    ).to.equal('ContainerCreating');
    expect(
      podStatusReason(
        base({
          phase: 'Running',
          containerStatuses: [{ name: 'c', ready: false, restartCount: 4, image: '', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
        }),
      ),
    ).to.equal('CrashLoopBackOff');
    expect(
      podStatusReason(
        base({
          phase: 'Pending',
          containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: '', imageID: '', state: { waiting: { reason: 'ImagePullBackOff' } } }],
        }),
      ),
    ).to.equal('ImagePullBackOff');
    expect(
      podStatusReason(
        base({
          phase: 'Failed',
          containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 3 } } }],
        }),
      ),
    ).to.equal('ExitCode:3');
    expect(
      podStatusReason(
        base({ phase: 'Running', containerStatuses: [{ name: 'c', ready: true, restartCount: 0, image: '', imageID: '', state: { running: {} } }] }),
      ),
    ).to.equal('Running');
    expect(podStatusReason(base({ phase: 'Running' }, { metadata: { name: 'p', deletionTimestamp: new Date() } }))).to.equal('Terminating');
    expect(
      podStatusReason(
        base(
          { phase: 'Pending', initContainerStatuses: [{ name: 'i', ready: false, restartCount: 0, image: '', imageID: '', state: { running: {} } }] },
          { spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'c' }] } },
        ),
      ),
    ).to.equal('Init:0/1');
  });
});

describe('sim api: tables', () => {
  it('prints HPAs and version-dependent Job columns', () => {
    const hpaRt = findResource('autoscaling', 'v2', 'horizontalpodautoscalers')!;
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', creationTimestamp: new Date() },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
      },
      status: { currentReplicas: 2 },
    };
    const t = toTable(hpaRt, 'horizontalpodautoscalers.autoscaling', [hpa], 'None', 33);
    expect(t.columnDefinitions.map(c => c.name)).to.deep.equal(['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
    expect(t.rows[0].cells.slice(0, 6)).to.deep.equal(['web', 'Deployment/web', 'cpu: <unknown>/60%', '2', '5', '2']);
    const jobRt = findResource('batch', 'v1', 'jobs')!;
    const job = { metadata: { name: 'j' }, spec: { completions: 1 }, status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } };
    expect(toTable(jobRt, 'jobs.batch', [job], 'None', 33).rows[0].cells.slice(0, 3)).to.deep.equal(['j', 'Complete', '1/1']);
    expect(
      toTable(jobRt, 'jobs.batch', [job], 'None', 29)
        .columnDefinitions.map(c => c.name)
        .slice(0, 3),
    ).to.deep.equal(['Name', 'Completions', 'Duration']);
  });
});

describe('sim api: conversion, faults, routing', () => {
  it('converts HPAs between autoscaling/v1 and v2', () => {
    const v1 = findResource('autoscaling', 'v1', 'horizontalpodautoscalers')!;
    const v2 = findResource('autoscaling', 'v2', 'horizontalpodautoscalers')!;
    const stored = toStorage(v1, {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    });
    expect(stored.apiVersion).to.equal('autoscaling/v2');
    expect((stored.spec as { metrics: unknown[] }).metrics).to.have.length(1);
    expect(toExternal(v2, stored).apiVersion).to.equal('autoscaling/v2');
    expect((toExternal(v1, stored).spec as { targetCPUUtilizationPercentage: number }).targetCPUUtilizationPercentage).to.equal(50);
  });

  it('injects seeded faults reproducibly and none by default', () => {
    const p = { ...PROFILE, faults: { seed: 7, apiErrorRate: 0.3, dropWatchRate: 0.5 } };
    const a = createFaults(p),
      b = createFaults(p);
    const seqA = Array.from({ length: 50 }, () => a.apiError());
    expect(seqA).to.deep.equal(Array.from({ length: 50 }, () => b.apiError()));
    const errs = seqA.filter(x => x !== undefined).length;
    expect(errs).to.be.within(5, 25);
    const none = createFaults(PROFILE);
    expect(Array.from({ length: 50 }, () => none.apiError()).every(x => x === undefined)).to.equal(true);
    expect(none.watchDropAfterMs()).to.equal(undefined);
  });

  it('routes namespaced, cluster-scoped, subresource, proxy and legacy watch paths', () => {
    expect(route('/api/v1/namespaces/ns1/pods/p/log', true)).to.include({ kind: 'resource', namespace: 'ns1', name: 'p', subresource: 'log' });
    expect(route('/api/v1/namespaces/ns1/status', true)).to.include({ kind: 'resource', name: 'ns1', subresource: 'status' });
    expect(route('/api/v1/namespaces/ns1', true)).to.include({ kind: 'resource', name: 'ns1' });
    expect(route('/api/v1/nodes/n1/proxy/stats/summary', true)).to.include({ name: 'n1', subresource: 'proxy', subpath: 'stats/summary' });
    expect(route('/apis/apps/v1/watch/namespaces/x/deployments', true)).to.include({ kind: 'resource', watchPath: true, namespace: 'x' });
    expect(route('/apis/metrics.k8s.io/v1beta1/nodes', false).kind).to.equal('notFound');
    expect(route('/apis/apps/v2/deployments', true).kind).to.equal('notFound');
    expect(aggregatedAccept('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json')).to.equal('v2beta1');
    expect(aggregatedAccept('application/json')).to.equal(undefined);
  });
});

describe('sim api: protobuf request bodies', () => {
  const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
  it('decodes what kubectl 1.33 sends for create namespace and create secret', () => {
    // Captured from `kubectl.1.33 create namespace nsx` and `create secret generic sx -n test --from-literal=a=b`.
    const ns = hex('6b387300 0a0f0a027631 12094e616d657370616365 121b0a130a036e73781200 1a0022002a00320038004200 12001a020a00 1a002200');
    expect(decodeProtobufObject(ns)).to.deep.equal({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nsx' } });
    const secret = hex('6b387300 0a0c0a027631120653656372657412220a160a0273781200 1a0474657374 22002a00320038004200 12060a01611201621a00 1a002200');
    expect(decodeProtobufObject(secret)).to.deep.equal({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sx', namespace: 'test' }, data: { a: 'Yg==' } });
  });

  it('refuses fields and kinds it does not know instead of dropping them', () => {
    const key = (no: number, wire: number) => Buffer.from([(no << 3) | wire]);
    const ld = (no: number, b: Buffer) => Buffer.concat([key(no, 2), Buffer.from([b.length]), b]);
    const str = (no: number, s: string) => ld(no, Buffer.from(s));
    const envelope = (apiVersion: string, kind: string, raw: Buffer) =>
      Buffer.concat([Buffer.from('k8s\0', 'latin1'), ld(1, Buffer.concat([str(1, apiVersion), str(2, kind)])), ld(2, raw)]);
    const ok = envelope('v1', 'ConfigMap', Buffer.concat([ld(1, str(1, 'c')), ld(2, Buffer.concat([str(1, 'k'), str(2, 'v')]))]));
    expect(decodeProtobufObject(ok)).to.deep.equal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } });
    const bad = envelope('v1', 'Namespace', Buffer.concat([ld(1, str(1, 'nsx')), ld(9, Buffer.alloc(0))]));
    expect(() => decodeProtobufObject(bad)).to.throw(/cannot decode protobuf field 9 of Namespace/);
    expect(() => decodeProtobufObject(envelope('v1', 'Nothing', Buffer.alloc(0)))).to.throw(/cannot decode Nothing/);
    expect(() => decodeProtobufObject(Buffer.from('{}'))).to.throw(/not a Kubernetes protobuf/);
  });
});
