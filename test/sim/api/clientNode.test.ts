// The API server as @kubernetes/client-node 1.4 sees it: CRUD, patch types, dry run,
// Status errors, watch (bookmarks, 410), cascade, subresources, auth.

import { expect } from 'chai';
import * as k8s from '@kubernetes/client-node';
import { startEnv, raw, rawWatch, waitFor, PROFILE, type Env } from '../../support/simApi.ts';
import { startGarbageCollector } from '../../../sim/controllers/garbageCollector.ts';

const pod = (name: string, labels: Record<string, string> = {}): k8s.V1Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'test', labels },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] }] },
});

function statusOf(e: unknown): { code: number; body: Record<string, any> } {
  expect(e).to.be.instanceOf(k8s.ApiException);
  const ex = e as k8s.ApiException<string>;
  return { code: ex.code, body: typeof ex.body === 'string' ? JSON.parse(ex.body) : (ex.body as Record<string, any>) };
}

async function rejects(p: Promise<unknown>): Promise<{ code: number; body: Record<string, any> }> {
  try {
    await p;
  } catch (e) {
    return statusOf(e);
  }
  throw new Error('expected the call to fail');
}

describe('sim api: client-node', function () {
  let env: Env;
  let core: k8s.CoreV1Api;
  let apps: k8s.AppsV1Api;
  before(async () => {
    env = await startEnv();
    core = env.kc.makeApiClient(k8s.CoreV1Api);
    apps = env.kc.makeApiClient(k8s.AppsV1Api);
  });
  after(async () => {
    await env.stop();
  });

  it('serves /version from the profile and answers 401 without credentials', async () => {
    const v = await env.kc.makeApiClient(k8s.VersionApi).getCode();
    expect(v.gitVersion).to.equal('v1.33.1');
    expect(v.minor).to.equal('33');
    expect(v.platform).to.equal('linux/amd64');
    const r = await raw(env, 'GET', '/api/v1/namespaces', { auth: false });
    expect(r.status).to.equal(401);
    expect(r.json()).to.include({ kind: 'Status', reason: 'Unauthorized', code: 401, message: 'Unauthorized' });
  });

  it('accepts a client certificate signed by its CA', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(env.api.kubeconfig({ auth: 'cert' }));
    const nodes = await kc.makeApiClient(k8s.CoreV1Api).listNode();
    expect(nodes.items.map(n => n.metadata?.name)).to.deep.equal(['linux-1', 'win-1']);
  });

  it('creates, reads, lists with selectors and pages', async () => {
    for (let i = 0; i < 5; i++) await core.createNamespacedPod({ namespace: 'test', body: pod(`page-${i}`, { set: 'page', idx: String(i) }) });
    const got = await core.readNamespacedPod({ namespace: 'test', name: 'page-0' });
    expect(got.metadata?.uid).to.be.a('string');
    expect(got.kind).to.equal('Pod');
    const sel = await core.listNamespacedPod({ namespace: 'test', labelSelector: 'set=page,idx in (1,3)' });
    expect(sel.items.map(p => p.metadata?.name)).to.deep.equal(['page-1', 'page-3']);
    const fs = await core.listPodForAllNamespaces({ fieldSelector: 'metadata.name=page-2' });
    expect(fs.items).to.have.length(1);
    const p1 = await core.listNamespacedPod({ namespace: 'test', labelSelector: 'set=page', limit: 2 });
    expect(p1.items).to.have.length(2);
    expect(p1.metadata?._continue).to.be.a('string');
    const p2 = await core.listNamespacedPod({ namespace: 'test', labelSelector: 'set=page', limit: 2, _continue: p1.metadata?._continue });
    const p3 = await core.listNamespacedPod({ namespace: 'test', labelSelector: 'set=page', limit: 2, _continue: p2.metadata?._continue });
    expect([...p1.items, ...p2.items, ...p3.items].map(p => p.metadata?.name)).to.deep.equal(['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
    expect(p3.metadata?._continue).to.equal(undefined);
    await core.deleteCollectionNamespacedPod({ namespace: 'test', labelSelector: 'set=page' });
    expect((await core.listNamespacedPod({ namespace: 'test', labelSelector: 'set=page' })).items).to.have.length(0);
  });

  it('answers 404, 409 AlreadyExists and 409 Conflict with Status bodies', async () => {
    const nf = await rejects(core.readNamespacedPod({ namespace: 'test', name: 'nope' }));
    expect(nf.code).to.equal(404);
    expect(nf.body).to.include({ kind: 'Status', status: 'Failure', reason: 'NotFound', message: 'pods "nope" not found' });
    expect(nf.body.details).to.include({ name: 'nope', kind: 'pods' });
    await core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'dup' }, data: { a: '1' } } });
    const ae = await rejects(core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'dup' } } }));
    expect(ae.code).to.equal(409);
    expect(ae.body).to.include({ reason: 'AlreadyExists', message: 'configmaps "dup" already exists' });
    const cur = await core.readNamespacedConfigMap({ namespace: 'test', name: 'dup' });
    await core.replaceNamespacedConfigMap({ namespace: 'test', name: 'dup', body: { ...cur, data: { a: '2' } } });
    const cf = await rejects(core.replaceNamespacedConfigMap({ namespace: 'test', name: 'dup', body: { ...cur, data: { a: '3' } } }));
    expect(cf.code).to.equal(409);
    expect(cf.body.reason).to.equal('Conflict');
    expect(cf.body.message).to.match(/the object has been modified/);
    const nsNf = await rejects(core.createNamespacedConfigMap({ namespace: 'absent', body: { metadata: { name: 'x' } } }));
    expect(nsNf.code).to.equal(404);
    expect(nsNf.body.message).to.equal('namespaces "absent" not found');
    const r = await raw(env, 'GET', '/apis/apps/v1/nothings');
    expect(r.status).to.equal(404);
    const m = await raw(env, 'POST', '/api/v1/namespaces/test/pods/x', { body: {} });
    expect(m.status).to.equal(405);
    expect(m.json()).to.include({ reason: 'MethodNotAllowed' });
  });

  it('applies JSON, merge and strategic merge patches', async () => {
    await core.createNamespacedPod({ namespace: 'test', body: pod('patchme', { a: '1' }) });
    const merge = await core.patchNamespacedPod(
      { namespace: 'test', name: 'patchme', body: { metadata: { labels: { a: null, b: '2' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(merge.metadata?.labels).to.deep.equal({ b: '2' });
    const json = await core.patchNamespacedPod(
      { namespace: 'test', name: 'patchme', body: [{ op: 'add', path: '/metadata/annotations', value: { x: 'y' } }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    expect(json.metadata?.annotations).to.deep.equal({ x: 'y' });
    const smp = await core.patchNamespacedPod(
      {
        namespace: 'test',
        name: 'patchme',
        body: {
          spec: {
            containers: [
              {
                name: 'c',
                env: [
                  { name: 'B', value: '2' },
                  { name: 'A', $patch: 'delete' },
                ],
                image: 'registry.k8s.io/pause:3.10',
              },
            ],
          },
        },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    const c = smp.spec!.containers[0];
    expect(c.image).to.equal('registry.k8s.io/pause:3.10');
    expect(c.env).to.deep.equal([{ name: 'B', value: '2' }]);
    expect(c.ports).to.deep.equal([{ containerPort: 80 }]);
    const bad = await raw(env, 'PATCH', '/api/v1/namespaces/test/pods/patchme', { body: {}, contentType: 'text/plain' });
    expect(bad.status).to.equal(415);
  });

  it('honours dryRun=All on every write', async () => {
    const dry = await core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'dry' }, data: { a: '1' } }, dryRun: 'All' });
    expect(dry.metadata?.name).to.equal('dry');
    expect(env.store.tryGet('configmaps', 'test', 'dry')).to.equal(undefined);
    await core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'wet' }, data: { a: '1' } } });
    await core.patchNamespacedConfigMap(
      { namespace: 'test', name: 'wet', body: { data: { a: '2' } }, dryRun: 'All' },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ namespace: 'test', name: 'wet', dryRun: 'All' });
    expect((env.store.get('configmaps', 'test', 'wet').data as Record<string, string>).a).to.equal('1');
  });

  it('rejects unknown fields with fieldValidation=Strict and warns with Warn', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'strict' }, data: {}, foo: 1, spec: { x: 1 } };
    const r = await raw(env, 'POST', '/api/v1/namespaces/test/configmaps?fieldValidation=Strict', { body });
    expect(r.status).to.equal(400);
    expect(r.json().message).to.equal('strict decoding error: unknown field "foo", unknown field "spec"');
    const p = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'strictpod' }, spec: { foo: 1, containers: [{ name: 'c', image: 'i', bar: 2 }] } };
    const r2 = await raw(env, 'POST', '/api/v1/namespaces/test/pods?fieldValidation=Strict', { body: p });
    expect(r2.json().message).to.equal('strict decoding error: unknown field "spec.containers[0].bar", unknown field "spec.foo"');
    const w = await raw(env, 'POST', '/api/v1/namespaces/test/configmaps?fieldValidation=Warn', { body });
    expect(w.status).to.equal(201);
    expect(String(w.headers.warning)).to.include('unknown field \\"foo\\"');
  });

  it('marks owners with the orphan / foregroundDeletion finalizers and deletes Background at once', async () => {
    const mk = async (name: string) => core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name } } });
    await mk('bg');
    const st = await raw(env, 'DELETE', '/api/v1/namespaces/test/configmaps/bg', {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
    });
    expect(st.json()).to.include({ kind: 'Status', status: 'Success' });
    expect(env.store.tryGet('configmaps', 'test', 'bg')).to.equal(undefined);
    await mk('orph');
    const o = await raw(env, 'DELETE', '/api/v1/namespaces/test/configmaps/orph?propagationPolicy=Orphan');
    expect(o.json<{ metadata: { finalizers: string[]; deletionTimestamp: string } }>().metadata.finalizers).to.deep.equal(['orphan']);
    await mk('fg');
    await core.deleteNamespacedConfigMap({ namespace: 'test', name: 'fg', body: { propagationPolicy: 'Foreground' } });
    const fg = env.store.get('configmaps', 'test', 'fg');
    expect(fg.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    expect(fg.metadata.deletionTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const bad = await raw(env, 'DELETE', '/api/v1/namespaces/test/configmaps/fg?propagationPolicy=Sideways');
    expect(bad.status).to.equal(422);
  });

  it('lets the garbage collector (sim/controllers) cascade and orphan after an API delete', async () => {
    const gc = startGarbageCollector({ store: env.store, profile: PROFILE, options: {} });
    try {
      const owner = await core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'owner' } } });
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! };
      await core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'child', ownerReferences: [ref] } } });
      await core.deleteNamespacedConfigMap({ namespace: 'test', name: 'owner', body: { propagationPolicy: 'Foreground' } });
      await waitFor(
        () => (!env.store.tryGet('configmaps', 'test', 'owner') && !env.store.tryGet('configmaps', 'test', 'child') ? true : undefined),
        5000,
        env.store,
      );
      const owner2 = await core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'owner2' } } });
      await core.createNamespacedConfigMap({
        namespace: 'test',
        body: { metadata: { name: 'orphan', ownerReferences: [{ ...ref, name: 'owner2', uid: owner2.metadata!.uid! }] } },
      });
      await core.deleteNamespacedConfigMap({ namespace: 'test', name: 'owner2', propagationPolicy: 'Orphan' });
      await waitFor(() => (!env.store.tryGet('configmaps', 'test', 'owner2') ? true : undefined), 5000, env.store);
      expect(env.store.get('configmaps', 'test', 'orphan').metadata.ownerReferences ?? []).to.have.length(0);
    } finally {
      await gc.stop();
    }
  });

  it('deletes a bound pod gracefully and honours gracePeriodSeconds=0', async () => {
    await core.createNamespacedPod({ namespace: 'test', body: { ...pod('bound'), spec: { ...pod('bound').spec!, nodeName: 'win-1' } } });
    const d = await core.deleteNamespacedPod({ namespace: 'test', name: 'bound' });
    expect(d.metadata?.deletionTimestamp).to.not.equal(undefined);
    expect(d.metadata?.deletionGracePeriodSeconds).to.equal(30);
    await core.deleteNamespacedPod({ namespace: 'test', name: 'bound', gracePeriodSeconds: 0 });
    expect(env.store.tryGet('pods', 'test', 'bound')).to.equal(undefined);
  });

  it('watches with client-node Watch: ADDED/MODIFIED/DELETED and bookmarks', async () => {
    const events: string[] = [];
    let bookmarks = 0;
    const w = new k8s.Watch(env.kc);
    const list = await core.listNamespacedConfigMap({ namespace: 'test' });
    const ac = await w.watch(
      '/api/v1/namespaces/test/configmaps',
      { allowWatchBookmarks: true, resourceVersion: list.metadata?.resourceVersion },
      (type, obj: k8s.V1ConfigMap) => {
        if (type === 'BOOKMARK') bookmarks++;
        else events.push(`${type} ${obj.metadata?.name}`);
      },
      () => {},
    );
    await core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'watched' } } });
    await core.patchNamespacedConfigMap(
      { namespace: 'test', name: 'watched', body: { data: { a: '1' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ namespace: 'test', name: 'watched' });
    await waitFor(() => (events.length >= 3 && bookmarks > 0 ? true : undefined));
    ac.abort();
    expect(events).to.deep.equal(['ADDED watched', 'MODIFIED watched', 'DELETED watched']);
  });

  it('sends no bookmarks on event watches (events are not in the watch cache), while other watches get them', async () => {
    const others = await rawWatch(env, '/api/v1/namespaces/test/configmaps?watch=true&allowWatchBookmarks=true&timeoutSeconds=2', ev =>
      ev.some(e => e.type === 'BOOKMARK'),
    );
    expect(others.events.map(e => e.type)).to.include('BOOKMARK');
    const events = await rawWatch(env, '/api/v1/namespaces/test/events?watch=true&allowWatchBookmarks=true&timeoutSeconds=1', ev =>
      ev.some(e => e.type === 'BOOKMARK'),
    );
    expect(events.events.map(e => e.type)).to.not.include('BOOKMARK');
  });

  it('sends an ERROR event with a 410 Expired Status for a too-old resourceVersion', async () => {
    await core.createNamespacedConfigMap({ namespace: 'test', body: { metadata: { name: 'old' } } });
    env.store.compact();
    const { events, ended } = await rawWatch(env, '/api/v1/namespaces/test/configmaps?watch=true&resourceVersion=1', ev => ev.length > 0);
    expect(events[0].type).to.equal('ERROR');
    expect(events[0].object).to.include({ kind: 'Status', code: 410, reason: 'Expired', status: 'Failure' });
    expect(events[0].object.message).to.match(/too old resource version/);
    void ended;
  });

  it('marks the end of initial events with an annotated bookmark (sendInitialEvents)', async () => {
    const { events } = await rawWatch(env, '/api/v1/nodes?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan', ev =>
      ev.some(e => e.type === 'BOOKMARK'),
    );
    expect(events.map(e => e.type)).to.deep.equal(['ADDED', 'ADDED', 'BOOKMARK']);
    const bm = events[2].object;
    expect(bm.metadata.annotations).to.deep.equal({ 'k8s.io/initial-events-end': 'true' });
    expect(bm.metadata.resourceVersion).to.equal(env.store.currentRV());
    expect(bm.kind).to.equal('Node');
  });

  it('ends a watch at timeoutSeconds and supports the legacy /watch/ path', async () => {
    const { events, ended } = await rawWatch(env, '/api/v1/watch/namespaces/test/configmaps/old?timeoutSeconds=1', () => false, 5000);
    expect(ended).to.equal(true);
    expect(events.map(e => `${e.type} ${e.object.metadata.name}`)).to.deep.equal(['ADDED old']);
  });

  it('serves Tables for kubectl get, including table watches', async () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    const t = (await raw(env, 'GET', '/api/v1/nodes', { accept })).json<{
      kind: string;
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[]; object: Record<string, any> }[];
    }>();
    expect(t.kind).to.equal('Table');
    expect(t.columnDefinitions.map(c => c.name)).to.deep.equal([
      'Name',
      'Status',
      'Roles',
      'Age',
      'Version',
      'Internal-IP',
      'External-IP',
      'OS-Image',
      'Kernel-Version',
      'Container-Runtime',
    ]);
    expect(t.rows[1].cells.slice(0, 3)).to.deep.equal(['win-1', 'Ready', '<none>']);
    expect(t.rows[0].object.kind).to.equal('PartialObjectMetadata');
    const { events } = await rawWatch(env, '/api/v1/nodes?watch=true&includeObject=None', ev => ev.length >= 2, 5000, accept);
    expect(events[0].object.kind).to.equal('Table');
    expect(events[0].object.rows).to.have.length(1);
    expect(events[0].object.rows[0].object).to.equal(undefined);
  });

  it('scales Deployments through the scale subresource and validates replicas (422)', async () => {
    await apps.createNamespacedDeployment({
      namespace: 'test',
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'w', image: 'i' }] } },
        },
      },
    });
    const s = await apps.readNamespacedDeploymentScale({ namespace: 'test', name: 'web' });
    expect(s.spec?.replicas).to.equal(1);
    expect(s.status?.selector).to.equal('app=web');
    await apps.replaceNamespacedDeploymentScale({ namespace: 'test', name: 'web', body: { ...s, spec: { replicas: 3 } } });
    expect((await apps.readNamespacedDeployment({ namespace: 'test', name: 'web' })).spec?.replicas).to.equal(3);
    const inv = await raw(env, 'PATCH', '/apis/apps/v1/namespaces/test/deployments/web/scale', {
      body: { spec: { replicas: -1 } },
      contentType: 'application/merge-patch+json',
    });
    expect(inv.status).to.equal(422);
    expect(inv.json<{ details: { causes: { field: string }[] } }>().details.causes[0].field).to.equal('spec.replicas');
    // The main resource ignores status writes; /status changes only status.
    const d = await apps.readNamespacedDeployment({ namespace: 'test', name: 'web' });
    await apps.replaceNamespacedDeploymentStatus({
      namespace: 'test',
      name: 'web',
      body: { ...d, spec: { ...d.spec!, replicas: 9 }, status: { readyReplicas: 2 } },
    });
    const after = await apps.readNamespacedDeployment({ namespace: 'test', name: 'web' });
    expect(after.spec?.replicas).to.equal(3);
    expect(after.status?.readyReplicas).to.equal(2);
  });

  it('binds and evicts pods, and refuses exec without an upgrade', async () => {
    await core.createNamespacedPod({ namespace: 'test', body: pod('tobind') });
    await core.createNamespacedPodBinding({
      namespace: 'test',
      name: 'tobind',
      body: { metadata: { name: 'tobind' }, target: { kind: 'Node', name: 'linux-1' } },
    });
    expect((await core.readNamespacedPod({ namespace: 'test', name: 'tobind' })).spec?.nodeName).to.equal('linux-1');
    const again = await rejects(
      core.createNamespacedPodBinding({ namespace: 'test', name: 'tobind', body: { metadata: { name: 'tobind' }, target: { kind: 'Node', name: 'win-1' } } }),
    );
    expect(again.code).to.equal(409);
    const ex = await raw(env, 'POST', '/api/v1/namespaces/test/pods/tobind/exec?command=ls&stdout=true');
    expect(ex.status).to.equal(400);
    expect(ex.json().message).to.equal('Upgrade request required');
    await core.createNamespacedPodEviction({
      namespace: 'test',
      name: 'tobind',
      body: { metadata: { name: 'tobind' }, deleteOptions: { gracePeriodSeconds: 0 } },
    });
    expect(env.store.tryGet('pods', 'test', 'tobind')).to.equal(undefined);
  });

  it('streams pod logs, proxies to the kubelet and serves metrics through the runtime handlers', async () => {
    await core.createNamespacedPod({ namespace: 'test', body: pod('logger') });
    env.api.setHandlers({
      exec: async () => ({ exitCode: 0 }),
      async log(req, out) {
        out.write(`hello from ${req.pod}/${req.container}\n`);
      },
      portForward: async () => {
        throw new Error('no');
      },
      async nodeProxy(node, path) {
        return { status: 200, contentType: 'application/json', body: JSON.stringify({ node: { nodeName: node }, path }) };
      },
      async podMetrics(ns) {
        return [{ metadata: { name: 'logger', namespace: ns ?? 'test' }, containers: [{ name: 'c', usage: { cpu: '1m', memory: '1Mi' } }] }];
      },
      async nodeMetrics() {
        return [{ metadata: { name: 'win-1' }, usage: { cpu: '100m', memory: '1Gi' } }];
      },
    });
    expect(await core.readNamespacedPodLog({ namespace: 'test', name: 'logger' })).to.equal('hello from logger/c\n');
    const bad = await rejects(core.readNamespacedPodLog({ namespace: 'test', name: 'logger', container: 'nope' }));
    expect(bad.code).to.equal(400);
    const px = await raw(env, 'GET', '/api/v1/nodes/win-1/proxy/stats/summary');
    expect(px.json()).to.deep.equal({ node: { nodeName: 'win-1' }, path: 'stats/summary' });
    const nm = await raw(env, 'GET', '/apis/metrics.k8s.io/v1beta1/nodes');
    expect(nm.json<{ kind: string; items: unknown[] }>().kind).to.equal('NodeMetricsList');
    const pm = await raw(env, 'GET', '/apis/metrics.k8s.io/v1beta1/namespaces/test/pods/logger');
    expect(pm.json()).to.include({ kind: 'PodMetrics' });
  });

  it('answers self-subject access and rules reviews', async () => {
    const authz = env.kc.makeApiClient(k8s.AuthorizationV1Api);
    const r = await authz.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { verb: 'create', resource: 'pods', namespace: 'test' } } } });
    expect(r.status?.allowed).to.equal(true);
    const rr = await authz.createSelfSubjectRulesReview({ body: { spec: { namespace: 'test' } } });
    expect(rr.status?.resourceRules?.[0].verbs).to.deep.equal(['*']);
  });

  it('shares Events between core/v1 and events.k8s.io/v1', async () => {
    await core.createNamespacedEvent({
      namespace: 'test',
      body: {
        metadata: { name: 'ev1' },
        involvedObject: { kind: 'Pod', name: 'p', namespace: 'test' },
        reason: 'Pulled',
        message: 'pulled it',
        type: 'Normal',
        source: { component: 'kubelet', host: 'win-1' },
        count: 2,
      },
    });
    const ev = env.kc.makeApiClient(k8s.EventsV1Api);
    const e = await ev.readNamespacedEvent({ namespace: 'test', name: 'ev1' });
    expect(e.note).to.equal('pulled it');
    expect(e.regarding?.name).to.equal('p');
    expect(e.reportingController).to.equal('kubelet');
    await ev.createNamespacedEvent({
      namespace: 'test',
      body: {
        metadata: { name: 'ev2' },
        eventTime: new Date(),
        regarding: { kind: 'Pod', name: 'q' },
        reason: 'Started',
        note: 'n',
        type: 'Normal',
        action: 'Start',
        reportingController: 'x',
        reportingInstance: 'y',
      },
    });
    const c = await core.readNamespacedEvent({ namespace: 'test', name: 'ev2' });
    expect(c.involvedObject.name).to.equal('q');
    expect(c.message).to.equal('n');
    const filtered = await ev.listNamespacedEvent({ namespace: 'test', fieldSelector: 'regarding.name=q' });
    expect(filtered.items.map(x => x.metadata?.name)).to.deep.equal(['ev2']);
  });

  it('serves discovery documents, aggregated when asked', async () => {
    const core1 = (await raw(env, 'GET', '/api/v1')).json<{ resources: { name: string; verbs: string[] }[] }>();
    expect(core1.resources.map(r => r.name)).to.include.members(['pods', 'pods/exec', 'pods/log', 'nodes/proxy', 'namespaces/finalize']);
    const agg = await raw(env, 'GET', '/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
    expect(agg.headers['content-type']).to.equal('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(agg.json<{ items: { metadata: { name: string } }[] }>().items.map(i => i.metadata.name)).to.include.members(['apps', 'metrics.k8s.io']);
    const groups = (await raw(env, 'GET', '/apis')).json<{ kind: string }>();
    expect(groups.kind).to.equal('APIGroupList');
    expect((await raw(env, 'GET', '/healthz', { auth: false })).body).to.equal('ok');
  });

  it('ends open watches on close and leaves no listener', async () => {
    const other = await startEnv();
    let done = false;
    const w = new k8s.Watch(other.kc);
    await w.watch(
      '/api/v1/pods',
      {},
      () => {},
      () => {
        done = true;
      },
    );
    await other.stop();
    await waitFor(() => (done ? true : undefined), 5000);
    const r = await raw(other, 'GET', '/version').then(
      () => 'open',
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(r).to.equal('ECONNREFUSED');
  });
});
