// The realistic profile's per-OS latencies (time-scaled pulls and container starts): loaded,
// validated (the kubelet uses them in sim/runtime/imagePull.ts and podWorker.ts; bench/ times them).

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile, ProfileError } from '../../../sim/profiles/load.ts';

describe('sim profiles: realistic latencies', () => {
  it('the realistic profile is the default cluster with Windows pulls and starts slower than Linux ones', () => {
    const p = loadProfile('realistic');
    const d = loadProfile('default');
    expect(p.nodes.map(n => n.name)).to.deep.equal(d.nodes.map(n => n.name));
    const l = p.latencies!;
    expect(l.windowsPullMs).to.be.greaterThan(l.linuxPullMs!);
    expect(l.windowsStartMs).to.be.greaterThan(l.linuxStartMs!);
  });

  it('scale-100-realistic is scale-100 with the realistic latencies (bench/node-scale.ts compares it with realistic)', () => {
    const p = loadProfile('scale-100-realistic');
    expect(p.nodes.map(n => n.name)).to.deep.equal(loadProfile('scale-100').nodes.map(n => n.name));
    expect(p.nodes.filter(n => n.os === 'windows')).to.have.length(100);
    expect(p.latencies).to.deep.equal(loadProfile('realistic').latencies);
  });

  it('a negative latency is refused, naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wincheck-lat-'));
    const file = join(dir, 'p.yaml');
    writeFileSync(file, 'name: p\nbase: default\nlatencies: { windowsStartMs: -1 }\n');
    expect(() => loadProfile(file)).to.throw(ProfileError, /latencies\.windowsStartMs/);
  });
});
