// Profile loading: built-ins, and one-line errors naming the file and the field.

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { builtinProfileNames, loadProfile, ProfileError, withOverrides } from '../../../sim/profiles/load.ts';

const dir = mkdtempSync(join(tmpdir(), 'wincheck-profiles-'));
let n = 0;

/** Writes the default profile with `edit` applied and returns its path. */
function profileFile(edit: (doc: Record<string, any>) => void): string {
  const doc = structuredClone(loadProfile('default')) as unknown as Record<string, any>;
  edit(doc);
  const file = join(dir, `p${n++}.yaml`);
  writeFileSync(file, stringify(doc));
  return file;
}

function loadError(file: string): string {
  try {
    loadProfile(file);
  } catch (err) {
    expect(err).to.be.instanceOf(ProfileError);
    return (err as Error).message;
  }
  throw new Error(`expected ${file} to be rejected`);
}

describe('sim profiles', () => {
  it('loads every built-in profile', () => {
    expect(builtinProfileNames()).to.include.members(['default', 'ws2019', 'ws2025', 'mixed-build', 'minimal', 'k8s-1-30', 'overlay']);
    for (const name of builtinProfileNames()) expect(loadProfile(name).name).to.equal(name);
  });

  it('describes the default cluster: v1.33, tainted control plane, 2 Linux and 2 WS2022 workers', () => {
    const p = loadProfile('default');
    expect(p.kubernetesVersion).to.match(/^v1\.33\./);
    const windows = p.nodes.filter(x => x.os === 'windows');
    expect(windows).to.have.length(2);
    for (const w of windows) {
      expect(w.windowsBuild).to.match(/^10\.0\.20348\./);
      expect(w.containerRuntime).to.match(/^containerd:\/\/1\.7\./);
      expect(w.taints).to.deep.include({ key: 'os', value: 'windows', effect: 'NoSchedule' });
      expect(w.ssh).to.equal(true);
      expect(w.reservedMemory).to.equal('2Gi');
    }
    expect(p.nodes.filter(x => x.os === 'linux' && x.role !== 'control-plane')).to.have.length(2);
    expect(p.nodes.filter(x => x.role === 'control-plane')).to.have.length(1);
    expect(p.network).to.include({ mode: 'l2bridge', cni: 'flannel' });
    expect(p.addons).to.include({ metricsServer: true, defaultStorageClass: true, hypervRuntimeClass: true, loadBalancer: true });
  });

  it('differs per built-in where the name says so', () => {
    expect(
      loadProfile('ws2019')
        .nodes.filter(x => x.os === 'windows')
        .map(x => x.windowsBuild!.slice(0, 10)),
    ).to.deep.equal(['10.0.17763', '10.0.17763']);
    expect(loadProfile('ws2025').nodes.find(x => x.os === 'windows')!.windowsBuild).to.match(/^10\.0\.26100\./);
    expect(
      loadProfile('mixed-build')
        .nodes.filter(x => x.os === 'windows')
        .map(x => x.windowsBuild!.split('.')[2]),
    ).to.have.members(['17763', '20348']);
    const minimal = loadProfile('minimal');
    expect(minimal.addons).to.deep.equal({});
    expect(minimal.nodes.filter(x => x.os === 'windows').every(x => !x.taints?.length && !x.ssh)).to.equal(true);
    expect(loadProfile('k8s-1-30').kubernetesVersion).to.match(/^v1\.30\./);
    expect(loadProfile('overlay').network.mode).to.equal('overlay');
  });

  it('names the built-ins when the name is unknown', () => {
    expect(() => loadProfile('nope')).to.throw(ProfileError, /unknown profile "nope"; built-in profiles: aks, .*default, .*ws2019/);
  });

  const cases: [string, (d: Record<string, any>) => void, RegExp][] = [
    [
      'a malformed Windows build',
      d => {
        d.nodes[3].windowsBuild = '10.0.2';
      },
      /: nodes\[3\]\.windowsBuild must look like 10\.0\.NNNNN\.N, got "10\.0\.2"$/,
    ],
    [
      'an unknown key',
      d => {
        d.nodes[1].colour = 'blue';
      },
      /: nodes\[1\]\.colour is not a known field; known: name, os, /,
    ],
    [
      'a wrong type',
      d => {
        d.nodes[0].ssh = 'yes';
      },
      /: nodes\[0\]\.ssh must be true or false, got string "yes"$/,
    ],
    [
      'an unknown break',
      d => {
        d.breaks = ['dns', 'teleport'];
      },
      /: breaks\[1\] "teleport" is not a known break; one of: scheduler-os-selector, /,
    ],
    [
      'an unknown limitation',
      d => {
        d.limitations = { icmpEgress: false, warpDrive: true };
      },
      /: limitations\.warpDrive is not a known limitation; known: icmpEgress, /,
    ],
    [
      'a duplicate node name',
      d => {
        d.nodes[4].name = d.nodes[3].name;
      },
      /: nodes\[4\]\.name "win-2022-1" is already used by nodes\[3\]$/,
    ],
    [
      'a Windows node without a build',
      d => {
        delete d.nodes[3].windowsBuild;
      },
      /: nodes\[3\]\.windowsBuild is required for a Windows node/,
    ],
    [
      'a missing required field',
      d => {
        delete d.network;
      },
      /: network is required$/,
    ],
    [
      'an unknown network mode',
      d => {
        d.network.mode = 'bridge';
      },
      /: network\.mode "bridge" is not a known network mode; one of: l2bridge, overlay, host-gw$/,
    ],
    [
      'a bad quantity',
      d => {
        d.nodes[0].capacity.memory = 'lots';
      },
      /: nodes\[0\]\.capacity\.memory must look like a quantity such as 4, 500m or 8Gi, got "lots"$/,
    ],
    [
      'a bad version',
      d => {
        d.kubernetesVersion = '1.33';
      },
      /: kubernetesVersion must look like v1\.33\.1, got "1\.33"$/,
    ],
    [
      'an unknown taint effect',
      d => {
        d.nodes[3].taints[0].effect = 'Never';
      },
      /: nodes\[3\]\.taints\[0\]\.effect "Never" is not a known taint effect/,
    ],
  ];
  for (const [what, edit, expected] of cases) {
    it(`rejects ${what} in one line naming the file and field`, () => {
      const file = profileFile(edit);
      const msg = loadError(file);
      expect(msg.startsWith(`${file}: `), msg).to.equal(true);
      expect(msg).to.match(expected);
      expect(msg).to.not.include('\n');
    });
  }

  it('rejects invalid YAML and a missing file in one line', () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'name: x\nnodes: [\n');
    expect(loadError(file)).to.match(new RegExp(`^${file.replace(/[.]/g, '\\.')}: not valid YAML: [^\\n]+$`));
    expect(loadError(join(dir, 'absent.yaml'))).to.match(/absent\.yaml: no such profile file$/);
  });

  it('withOverrides lifts limitations and adds breaks without touching the original', () => {
    const p = loadProfile('default');
    const q = withOverrides(p, { limitations: { icmpEgress: false }, breaks: ['hpa'] });
    expect(q.limitations).to.deep.equal({ icmpEgress: false });
    expect(q.breaks).to.deep.equal(['hpa']);
    expect(p.breaks ?? []).to.deep.equal([]);
    expect(() => withOverrides(p, { breaks: ['nope' as never] })).to.throw(ProfileError, /"nope" is not a known break/);
  });
});

describe('sim profiles: base', () => {
  const write = (text: string) => {
    const f = join(dir, `b${n++}.yaml`);
    writeFileSync(f, text);
    return f;
  };

  it('takes a built-in as the base and states only what differs', () => {
    const p = loadProfile(write('name: broken-w2l\nbase: default\nlimitations:\n  icmpEgress: false\nbreaks: [w2l]\n'));
    const base = loadProfile('default');
    expect(p.name).to.equal('broken-w2l');
    expect(p.nodes).to.deep.equal(base.nodes);
    expect(p.limitations?.icmpEgress).to.equal(false);
    expect(p.breaks).to.deep.equal([...(base.breaks ?? []), 'w2l']);
    expect(p.addons).to.deep.equal(base.addons);
  });

  it("merges addons and network into the base's", () => {
    const p = loadProfile(write('name: x\nbase: default\naddons:\n  metricsServer: false\nnetwork:\n  mode: overlay\n'));
    expect(p.addons.metricsServer).to.equal(false);
    expect(p.addons.defaultStorageClass).to.equal(loadProfile('default').addons.defaultStorageClass);
    expect(p.network.mode).to.equal('overlay');
    expect(p.network.cni).to.equal(loadProfile('default').network.cni);
  });

  it('names the file for an unknown base and still validates the merged profile', () => {
    expect(loadError(write('name: x\nbase: nope\n'))).to.match(/b\d+\.yaml: base: unknown profile "nope"; built-in profiles: .*default/);
    expect(loadError(write('name: x\nbase: default\nbreaks: [nonsense]\n'))).to.match(/b\d+\.yaml: breaks\[\d+\] "nonsense" is not a known break/);
  });

  it('names an inheritance loop instead of overflowing the stack', () => {
    writeFileSync(join(dir, 'self.yaml'), 'name: self\nbase: ./self.yaml\n');
    expect(loadError(join(dir, 'self.yaml'))).to.match(/self\.yaml: base: inheritance loop \(.*self\.yaml -> .*self\.yaml\)/);
    writeFileSync(join(dir, 'loop-a.yaml'), 'name: a\nbase: ./loop-b.yaml\n');
    writeFileSync(join(dir, 'loop-b.yaml'), 'name: b\nbase: loop-a.yaml\n');
    expect(loadError(join(dir, 'loop-a.yaml'))).to.match(/inheritance loop \(.*loop-a\.yaml -> .*loop-b\.yaml -> .*loop-a\.yaml\)/);
  });
});
