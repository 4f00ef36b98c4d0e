// Config file validation (errors name the file and the field path) and precedence (flags win).

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDuration } from '../../../util/duration.ts';
import { loadConfigFile, validateConfig } from '../../../lib/config/load.ts';
import { resolveConfig } from '../../../lib/config/resolve.ts';
import { UsageError } from '../../../lib/errors.ts';

function fails(data: unknown): string {
  try {
    validateConfig(data, 'wincheck.yaml');
  } catch (e) {
    expect(e).to.be.instanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('expected a validation error');
}

describe('config file', () => {
  it('names the file and the field path', () => {
    expect(fails({ probes: { timeoutMs: -1 } })).to.equal('wincheck.yaml: probes.timeoutMs must be a non-negative number');
    expect(fails({ probes: { timeoutMs: 'soon' } })).to.equal('wincheck.yaml: probes.timeoutMs must be a non-negative number');
    expect(fails({ suites: ['scheduling', 3] })).to.equal('wincheck.yaml: suites[1] must be a non-empty string');
    expect(fails({ strict: 'yes' })).to.equal('wincheck.yaml: strict must be true or false');
    expect(fails({ ssh: { usr: 'x' } })).to.equal('wincheck.yaml: ssh.usr is not a known field (known: user, key, knownHosts)');
    expect(fails({ timeouts: { podStart: -5 } })).to.equal('wincheck.yaml: timeouts.podStart must be a non-negative number');
    expect(fails({ timeout: 'later' })).to.match(/^wincheck.yaml: timeout "later" is not a duration with a unit/);
    expect(fails({ timeout: 1800 })).to.match(/^wincheck.yaml: timeout must be a duration with a unit/);
    expect(fails({ timeout: '0m' })).to.match(/^wincheck.yaml: timeout "0m" must be longer than zero/);
    expect(fails(['a'])).to.equal('wincheck.yaml: the file must be a mapping');
    expect(fails({ parallel: 0 })).to.equal('wincheck.yaml: parallel must be a positive integer');
  });

  it('accepts a full file', () => {
    expect(
      validateConfig(
        {
          kubeconfig: '/k',
          suites: 'scheduling',
          skip: ['net.*'],
          timeout: '30m',
          strict: true,
          imageRegistry: 'mirror.local',
          ssh: { user: 'Administrator', key: '/id', knownHosts: '/kh' },
          loadBalancer: false,
          probes: { timeoutMs: 30000 },
          timeouts: { podStart: 60000 },
        },
        'wincheck.yaml',
      ),
    ).to.deep.equal({
      kubeconfig: '/k',
      suites: ['scheduling'],
      skip: ['net.*'],
      timeoutMs: 1_800_000,
      strict: true,
      imageRegistry: 'mirror.local',
      ssh: { user: 'Administrator', key: '/id', knownHosts: '/kh' },
      loadBalancer: false,
      probes: { timeoutMs: 30000 },
      timeouts: { podStart: 60000 },
    });
  });

  it('reports bad YAML and a missing file in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wincheck-cfg-'));
    writeFileSync(join(dir, 'wincheck.yaml'), 'suites: [a\n');
    expect(() => loadConfigFile(join(dir, 'wincheck.yaml'))).to.throw(UsageError, /^wincheck.yaml: not valid YAML/);
    expect(() => loadConfigFile(join(dir, 'nope.yaml'))).to.throw(UsageError, /nope.yaml does not exist/);
  });

  it('flags win over the file, the file over defaults; $ARTIFACTS before reports/', () => {
    const file = { reportDir: 'from-file', strict: true, suites: ['workloads'], probes: { timeoutMs: 5 } };
    const c = resolveConfig({ reportDir: 'from-flag', suite: [] }, file, {});
    expect(c.reportDir).to.equal('from-flag');
    expect(c.strict).to.equal(true);
    expect(c.suites).to.deep.equal(['workloads']);
    expect(c.probeTimeoutMs).to.equal(5);
    expect(resolveConfig({ suite: ['scheduling'] }, file, {}).suites).to.deep.equal(['scheduling']);
    expect(resolveConfig({}, {}, { ARTIFACTS: '/logs/artifacts' }).reportDir).to.equal('/logs/artifacts');
    expect(resolveConfig({}, {}, {}).reportDir).to.equal('reports');
    expect(resolveConfig({ strict: false }, file, {}).strict).to.equal(false);
  });

  it('parses durations', () => {
    expect(parseDuration('30m')).to.equal(1_800_000);
    expect(parseDuration('1h30m')).to.equal(5_400_000);
    expect(parseDuration('90s')).to.equal(90_000);
    // Unitless is unreadable: "--timeout 20" must not mean 20 ms.
    expect(parseDuration('2500')).to.equal(undefined);
    expect(parseDuration('soon')).to.equal(undefined);
    expect(parseDuration('5x')).to.equal(undefined);
  });
});
