// The OpenAPI documents (sim/api/openapi.ts): the v3 index and its linked group-version
// documents, the v2 JSON document, and the v2 protobuf decoded back with protobufjs.

import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveOpenAPI, V2_PROTOBUF } from '../../../sim/api/openapi/index.ts';
import { documentMessage } from '../../../sim/api/openapi/gnostic.ts';
import { RESOURCES } from '../../../sim/api/resources.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed OpenAPI documents

describe('sim OpenAPI documents', function () {
  this.timeout(30_000);
  let server: Server;
  let base: string;

  before(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (!serveOpenAPI(req, res, path, 'v1.33.2')) {
        res.writeHead(404);
        res.end('not mine');
      }
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>(resolve => server.close(() => resolve())));

  /** Every $ref in a document points at a schema the document holds. */
  function danglingRefs(doc: Json, prefix: string, holder: Json): string[] {
    const out: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref' && typeof x === 'string' && !(x.startsWith(prefix) && holder[x.slice(prefix.length)])) out.push(x);
          else walk(x);
        }
      }
    };
    walk(doc);
    return out;
  }

  it('leaves other paths to the caller', async () => {
    const r = await fetch(`${base}/api/v1`);
    expect(await r.text()).to.equal('not mine');
  });

  it('serves a v3 index whose links resolve to documents kubectl can use', async () => {
    const index = (await (await fetch(`${base}/openapi/v3`)).json()) as Json;
    expect(index.paths).to.have.property('api/v1');
    expect(index.paths).to.have.property('apis/apps/v1');
    for (const [key, entry] of Object.entries(index.paths as Record<string, { serverRelativeURL: string }>)) {
      expect(entry.serverRelativeURL).to.match(new RegExp(`^/openapi/v3/${key}\\?hash=[0-9A-F]+$`));
      const r = await fetch(base + entry.serverRelativeURL);
      expect(r.status, key).to.equal(200);
      expect(r.headers.get('cache-control')).to.equal('public, immutable');
      const doc = (await r.json()) as Json;
      expect(doc.openapi).to.equal('3.0.0');
      expect(danglingRefs(doc, '#/components/schemas/', doc.components.schemas), key).to.deep.equal([]);
      // Every PATCH names its GVK and lists fieldValidation: kubectl then validates server-side.
      const patches = Object.values(doc.paths as Record<string, Json>)
        .filter(p => p.patch)
        .map(p => p.patch);
      const patchable = RESOURCES.some(r => (r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`) === key && r.verbs?.includes('patch'));
      expect(patches.length > 0, key).to.equal(patchable);
      for (const p of patches) {
        expect(p['x-kubernetes-group-version-kind']).to.have.keys('group', 'version', 'kind');
        expect(p.parameters.map((x: Json) => `${x.in}:${x.name}`)).to.include('query:fieldValidation');
      }
    }
    const core = (await (await fetch(`${base}/openapi/v3/api/v1`)).json()) as Json;
    const pod = core.components.schemas['io.k8s.api.core.v1.Pod'];
    expect(pod['x-kubernetes-group-version-kind']).to.deep.equal([{ group: '', kind: 'Pod', version: 'v1' }]);
    const containers = core.components.schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
    expect(containers).to.include({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });
    expect(core.components.schemas['io.k8s.api.core.v1.ContainerPort'].properties.containerPort).to.include({ type: 'integer', format: 'int32' });
  });

  it('has a GVK for every served kind that upstream models', async () => {
    const doc = (await (await fetch(`${base}/openapi/v2`)).json()) as Json;
    const gvks = Object.values(doc.definitions as Record<string, Json>)
      .flatMap(d => d['x-kubernetes-group-version-kind'] ?? [])
      .map((g: Json) => `${g.group}/${g.version}/${g.kind}`);
    const missing = RESOURCES.filter(r => r.group !== 'metrics.k8s.io')
      .map(r => `${r.group}/${r.version}/${r.kind}`)
      .filter(k => !gvks.includes(k));
    expect(missing).to.deep.equal([]);
    expect(danglingRefs(doc, '#/definitions/', doc.definitions)).to.deep.equal([]);
  });

  it('answers 404 for an unknown group version', async () => {
    const r = await fetch(`${base}/openapi/v3/apis/nope/v1`);
    expect(r.status).to.equal(404);
    expect(((await r.json()) as Json).reason).to.equal('NotFound');
  });

  it('encodes v2 as gnostic protobuf that decodes back to the document', async () => {
    const r = await fetch(`${base}/openapi/v2`, { headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect(r.headers.get('content-type')).to.equal(V2_PROTOBUF);
    const bytes = new Uint8Array(await r.arrayBuffer());
    const type = documentMessage();
    const doc = type.toObject(type.decode(bytes), { defaults: false }) as Json;
    expect(doc.swagger).to.equal('2.0');
    expect(doc.info.version).to.equal('v1.33.2');
    const defs = new Map<string, Json>((doc.definitions.additional_properties as Json[]).map(d => [d.name, d.value]));
    const pod = defs.get('io.k8s.api.core.v1.Pod')!;
    expect(pod.type.value).to.deep.equal(['object']);
    const gvk = (pod.vendor_extension as Json[]).find(e => e.name === 'x-kubernetes-group-version-kind')!;
    expect(JSON.parse(gvk.value.yaml)).to.deep.equal([{ group: '', kind: 'Pod', version: 'v1' }]);
    const props = new Map<string, Json>((defs.get('io.k8s.api.core.v1.PodSpec')!.properties.additional_properties as Json[]).map(p => [p.name, p.value]));
    expect(props.get('containers')!.items.schema[0]._ref).to.equal('#/definitions/io.k8s.api.core.v1.Container');
    // The PATCH of pods lists fieldValidation as a query parameter, where client-go's verifier looks.
    const item = (doc.paths.path as Json[]).find(p => p.name === '/api/v1/namespaces/{namespace}/pods/{name}')!;
    const names = (item.value.patch.parameters as Json[]).map(p => p.parameter?.non_body_parameter?.query_parameter_sub_schema?.name).filter(Boolean);
    expect(names).to.include('fieldValidation');
    expect((item.value.patch.vendor_extension as Json[]).map(e => e.name)).to.include('x-kubernetes-group-version-kind');
  });
});
