import { expect } from 'chai';
import { loadCatalog } from '../../lib/catalog/registry.ts';
import { selectFeatures } from '../../lib/catalog/select.ts';
import type { Feature } from '../../lib/catalog/types.ts';
import { UsageError } from '../../lib/errors.ts';

describe('feature selection', () => {
  let catalog: Feature[];
  before(async () => { catalog = await loadCatalog(); });
  const ids = (sel: Parameters<typeof selectFeatures>[1]) => selectFeatures(catalog, sel).map(f => f.id);

  it('selects by suite, by feature glob, and both (union)', () => {
    expect(ids({ suites: ['config'] })).to.deep.equal(['cfg.secret-env', 'cfg.configmap-env']);
    expect(ids({ features: ['sched.os-*'] })).to.deep.equal(['sched.os-selector', 'sched.os-selector-beta']);
    expect(ids({ suites: ['config'], features: ['work.iis-pod'] })).to.deep.equal(['work.iis-pod', 'cfg.secret-env', 'cfg.configmap-env']);
  });

  it('skips by id or suite glob', () => {
    expect(ids({ suites: ['scheduling'], skip: ['sched.os-*', 'sched.pod-*'] })).to.deep.equal(['sched.linux-stays-linux', 'sched.taint-toleration', 'sched.runtimeclass-scheduling']);
    expect(ids({ skip: ['scheduling', 'workloads'] })).to.deep.equal(['cfg.secret-env', 'cfg.configmap-env']);
  });

  it('an unknown name is a usage error listing the valid ones', () => {
    expect(() => ids({ suites: ['nope'] })).to.throw(UsageError, /^--suite nope matches nothing; valid names: config, .*scheduling/);
    expect(() => ids({ features: ['sched.nope'] })).to.throw(UsageError, /valid names: .*sched.os-selector/);
  });
});
