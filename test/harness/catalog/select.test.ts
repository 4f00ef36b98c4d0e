// Selection over a small fixed catalog, so the test does not move as features are added.

import { expect } from 'chai';
import { checkCatalog } from '../../../lib/catalog/registry.ts';
import { selectFeatures } from '../../../lib/catalog/select.ts';
import type { Area, Feature } from '../../../lib/catalog/types.ts';
import { UsageError } from '../../../lib/errors.ts';

const f = (id: string, area: Area): Feature => ({
  id,
  area,
  title: id,
  fixtures: [],
  expect: () => ({ expected: 'supported', reason: '', source: [] }),
  probe: async () => ({ works: true, summary: '', evidence: [] }),
});
const catalog = [
  f('sched.os-selector', 'scheduling'),
  f('sched.os-selector-beta', 'scheduling'),
  f('sched.pod-os-field', 'scheduling'),
  f('work.iis-pod', 'workloads'),
  f('cfg.secret-env', 'config'),
  f('cfg.configmap-env', 'config'),
];
const ids = (sel: Parameters<typeof selectFeatures>[1]) => selectFeatures(catalog, sel).map(x => x.id);

describe('feature selection', () => {
  it('selects by suite, by feature glob, and both (union)', () => {
    expect(ids({ suites: ['config'] })).to.deep.equal(['cfg.secret-env', 'cfg.configmap-env']);
    expect(ids({ features: ['sched.os-*'] })).to.deep.equal(['sched.os-selector', 'sched.os-selector-beta']);
    expect(ids({ suites: ['config'], features: ['work.iis-pod'] })).to.deep.equal(['work.iis-pod', 'cfg.secret-env', 'cfg.configmap-env']);
    expect(ids({})).to.have.length(6);
  });

  it('skips by id or suite glob', () => {
    expect(ids({ suites: ['scheduling'], skip: ['sched.os-*'] })).to.deep.equal(['sched.pod-os-field']);
    expect(ids({ skip: ['scheduling', 'workloads'] })).to.deep.equal(['cfg.secret-env', 'cfg.configmap-env']);
  });

  it('an unknown name is a usage error listing the valid ones', () => {
    expect(() => ids({ suites: ['nope'] })).to.throw(UsageError, '--suite nope matches nothing; valid names: config, scheduling, workloads');
    expect(() => ids({ features: ['sched.nope'] })).to.throw(UsageError, /valid names: cfg.configmap-env, cfg.secret-env, sched.os-selector/);
  });

  it('rejects malformed and duplicate ids, and suites with "_"', () => {
    expect(() => checkCatalog([f('Sched.X', 'scheduling')])).to.throw('feature id "Sched.X" must look like "area.name"');
    expect(() => checkCatalog([f('a.b', 'scheduling'), f('a.b', 'config')])).to.throw('feature id "a.b" is defined twice');
    expect(() => checkCatalog([{ ...f('a.b', 'scheduling'), suite: 'node_access' }])).to.throw(/cannot contain "_"/);
  });
});
