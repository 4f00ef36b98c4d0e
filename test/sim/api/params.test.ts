// Query parameters as the API server's parameter codec reads them (apimachinery's
// Convert_Slice_string_To_bool / _int64): the official Python client sends watch=True.

import { expect } from 'chai';
import { boolParam, int64Param, optionalBoolParam } from '../../../sim/api/params.ts';
import { raw, rawWatch, startEnv, type Env } from '../../support/simApi.ts';

const q = (s: string) => new URLSearchParams(s);

describe('sim api: query parameter conversion', () => {
  it('reads booleans as apimachinery does: absent, "0" and any-case "false" are false, the rest true', () => {
    for (const v of ['true', 'True', 'TRUE', '1', 't', 'T', 'yes', '']) expect(boolParam(q(`watch=${v}`), 'watch'), v).to.equal(true);
    for (const v of ['false', 'False', 'FALSE', 'fAlSe', '0']) expect(boolParam(q(`watch=${v}`), 'watch'), v).to.equal(false);
    expect(boolParam(q(''), 'watch')).to.equal(false);
    expect(optionalBoolParam(q(''), 'orphanDependents')).to.equal(undefined);
    expect(optionalBoolParam(q('orphanDependents=False'), 'orphanDependents')).to.equal(false);
  });

  it('reads integers with strconv.ParseInt and refuses anything else with its message', () => {
    expect(int64Param(q('limit=5'), 'limit')).to.equal(5);
    expect(int64Param(q('limit=%2B5'), 'limit')).to.equal(5);
    expect(int64Param(q('gracePeriodSeconds=-1'), 'gracePeriodSeconds')).to.equal(-1);
    expect(int64Param(q(''), 'limit')).to.equal(undefined);
    for (const v of ['abc', '1.5', '', ' 1', '0x10'])
      expect(() => int64Param(q(`limit=${encodeURIComponent(v)}`), 'limit'), v).to.throw(`strconv.ParseInt: parsing "${v}": invalid syntax`);
    expect(() => int64Param(q('limit=9223372036854775808'), 'limit')).to.throw('value out of range');
  });

  describe('over HTTP', function () {
    this.timeout(30_000);
    let env: Env;
    before(async () => {
      env = await startEnv();
    });
    after(async () => {
      await env?.stop();
    });

    it('watches on watch=True (what the Python client sends) and lists on watch=FALSE', async () => {
      const w = await rawWatch(env, '/api/v1/namespaces?watch=True', ev => ev.length >= 3);
      expect(w.events.map(e => e.type)).to.include('ADDED');
      const list = await raw(env, 'GET', '/api/v1/namespaces?watch=FALSE');
      expect(list.status).to.equal(200);
      expect(list.json().kind).to.equal('NamespaceList');
    });

    it('answers 400 with the conversion error for a malformed limit or timeoutSeconds', async () => {
      const bad = await raw(env, 'GET', '/api/v1/namespaces?limit=ten');
      expect(bad.status).to.equal(400);
      expect(bad.json()).to.include({ reason: 'BadRequest', message: 'strconv.ParseInt: parsing "ten": invalid syntax' });
      const badWatch = await raw(env, 'GET', '/api/v1/namespaces?watch=1&timeoutSeconds=soon');
      expect(badWatch.status).to.equal(400);
      expect((await raw(env, 'GET', '/api/v1/namespaces?limit=1')).json<{ items: unknown[] }>().items).to.have.length(1);
    });
  });
});
