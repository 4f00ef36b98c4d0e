// Field selectors as the API server takes them: each kind's own labels, the upstream 400 texts
// for the others (list, watch and deletecollection alike), and the values ToSelectableFields reads.

import { expect } from 'chai';
import { checkFieldSelector, matchesFields, parseFieldSelector, SelectorError } from '../../../sim/api/selectors.ts';
import { startEnv, raw, type Env } from '../../support/simApi.ts';

const refusal = (bucket: string, s: string): string => {
  try {
    checkFieldSelector(bucket, s);
  } catch (e) {
    expect(e).to.be.instanceOf(SelectorError);
    return (e as Error).message;
  }
  throw new Error(`${s} on ${bucket} was accepted`);
};

describe('sim api: field selectors', function () {
  describe('which labels each kind takes', () => {
    it('accepts the labels of the kind', () => {
      for (const [bucket, s] of [
        ['pods', 'spec.nodeName=a,status.phase!=Running,spec.restartPolicy=Always,spec.hostNetwork=true,status.podIP=1.2.3.4,metadata.namespace=x'],
        ['pods', 'spec.host=a,spec.schedulerName=s,spec.serviceAccountName=d,status.nominatedNodeName=n,status.podIPs=1.2.3.4'],
        ['nodes', 'spec.unschedulable=false,metadata.name=n'],
        ['namespaces', 'status.phase=Active'],
        ['secrets', 'type=kubernetes.io/tls'],
        ['services', 'spec.type=LoadBalancer,spec.clusterIP=None'],
        ['events', 'involvedObject.kind=Pod,involvedObject.name=p,involvedObject.uid=u,reason=Failed,type=Warning,source=kubelet,reportingComponent=x'],
        ['jobs.batch', 'status.successful=1'],
        ['deployments.apps', 'metadata.name=d,metadata.namespace=n'],
      ] as const)
        expect(() => checkFieldSelector(bucket, s), `${bucket} ${s}`).not.to.throw();
    });

    it('refuses the others in the conversion func own words', () => {
      // apps registers no conversion func: the generic fallback's text.
      expect(refusal('deployments.apps', 'spec.replicas=2')).to.equal(
        '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
      );
      expect(refusal('replicasets.apps', 'status.replicas=1')).to.equal(
        '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
      );
      expect(refusal('configmaps', 'data.a=b')).to.equal('"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"');
      expect(refusal('pods', 'spec.replicas=2')).to.equal('field label not supported: spec.replicas');
      expect(refusal('pods', 'status.hostIP=1.2.3.4')).to.equal('field label not supported: status.hostIP');
      // Cluster-scoped kinds with their own func do not take metadata.namespace.
      expect(refusal('nodes', 'metadata.namespace=x')).to.equal('field label not supported: metadata.namespace');
      expect(refusal('jobs.batch', 'status.active=1')).to.equal('field label "status.active" not supported for Job');
    });
  });

  describe('what the labels read', () => {
    const m = (bucket: string, s: string, o: unknown) => matchesFields(parseFieldSelector(s), o, bucket);
    it('reads an absent bool as false and an absent count as 0', () => {
      const plain = { metadata: { name: 'n' }, spec: {} };
      const cordoned = { metadata: { name: 'c' }, spec: { unschedulable: true } };
      expect(m('nodes', 'spec.unschedulable=false', plain)).to.equal(true);
      expect(m('nodes', 'spec.unschedulable!=true', plain)).to.equal(true);
      expect(m('nodes', 'spec.unschedulable=false', cordoned)).to.equal(false);
      expect(m('nodes', 'spec.unschedulable=true', cordoned)).to.equal(true);
      expect(m('pods', 'spec.hostNetwork=false', { metadata: {}, spec: {} })).to.equal(true);
      expect(m('jobs.batch', 'status.successful=0', { metadata: {}, status: {} })).to.equal(true);
      expect(m('jobs.batch', 'status.successful=2', { metadata: {}, status: { succeeded: 2 } })).to.equal(true);
    });
    it('reads the old spelling spec.host as spec.nodeName, and an event source from the reporting controller', () => {
      expect(m('pods', 'spec.host=n1', { metadata: {}, spec: { nodeName: 'n1' } })).to.equal(true);
      expect(m('events', 'source=default-scheduler', { metadata: {}, reportingComponent: 'default-scheduler' })).to.equal(true);
      expect(m('events', 'source=kubelet', { metadata: {}, source: { component: 'kubelet' } })).to.equal(true);
    });
  });

  describe('over HTTP', () => {
    let env: Env;
    before(async () => {
      env = await startEnv();
    });
    after(async () => {
      await env.stop();
    });

    it('answers 400 BadRequest for list, watch and deletecollection', async () => {
      for (const path of [
        '/apis/apps/v1/namespaces/test/deployments?fieldSelector=spec.replicas%3D2',
        '/apis/apps/v1/namespaces/test/deployments?watch=true&fieldSelector=spec.replicas%3D2',
      ]) {
        const r = await raw(env, 'GET', path);
        expect(r.status, path).to.equal(400);
        expect(r.json()).to.include({
          kind: 'Status',
          reason: 'BadRequest',
          message: '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
        });
      }
      const d = await raw(env, 'DELETE', '/api/v1/namespaces/test/pods?fieldSelector=spec.replicas%3D2');
      expect(d.status).to.equal(400);
      expect(d.json()).to.include({ message: 'field label not supported: spec.replicas' });
    });

    it('selects uncordoned nodes with spec.unschedulable=false, as kubectl drain does', async () => {
      const r = await raw(env, 'GET', '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse');
      expect(r.status).to.equal(200);
      expect(r.json<{ items: { metadata: { name: string } }[] }>().items.map(n => n.metadata.name)).to.deep.equal(['linux-1', 'win-1']);
      const e = await raw(env, 'GET', '/apis/events.k8s.io/v1/namespaces/test/events?fieldSelector=regarding.name%3Dx,reportingController%3Dy');
      expect(e.status).to.equal(200);
    });
  });
});
