// client-go's loading rules, as loadKubeConfig applies them: merged KUBECONFIG files (the first to
// set a name wins), paths against the file that names them, overrides, credential kinds, refusals.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { stringify } from 'yaml';
import { loadKubeConfig } from '../../../lib/cluster/kubeconfig.ts';
import { mergeKubeconfigFiles } from '../../../lib/cluster/kubeconfigFiles.ts';
import { authOf, TokenFileSource } from '../../../lib/cluster/credentials.ts';
import { refusalLine } from '../../../lib/cluster/refusal.ts';
import { UsageError } from '../../../lib/errors.ts';

let dir: string;
const file = (rel: string, doc: unknown) => {
  const p = join(dir, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, typeof doc === 'string' ? doc : stringify(doc));
  return p;
};
const cluster = (name: string, server: string, extra: Record<string, unknown> = {}) => ({ name, cluster: { server, ...extra } });
const user = (name: string, u: Record<string, unknown>) => ({ name, user: u });
const context = (name: string, c: string, u?: string) => ({ name, context: { cluster: c, user: u } });

describe('kubeconfig loading (client-go rules)', () => {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wincheck-kc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('merges KUBECONFIG files: the cluster in one, the user in another', () => {
    const a = file('a.yaml', { clusters: [cluster('c', 'https://127.0.0.1:6443')], contexts: [context('x', 'c', 'u')], 'current-context': 'x' });
    const b = file('b.yaml', { users: [user('u', { token: 'abc' })] });
    const { kc, source, credentials } = loadKubeConfig({}, { KUBECONFIG: [a, b].join(delimiter) });
    expect(kc.getCurrentCluster()?.server).to.equal('https://127.0.0.1:6443');
    expect(kc.getCurrentUser()?.token).to.equal('abc');
    expect(source).to.equal([a, b].join(delimiter));
    expect(credentials.kind).to.equal('token');
  });

  it('the first file to set a name or current-context wins it whole', () => {
    const a = file('a.yaml', { users: [user('u', { token: 'first' })], 'current-context': 'one' });
    const b = file('b.yaml', {
      clusters: [cluster('c', 'https://b')],
      users: [user('u', { token: 'second', username: 'x' })],
      contexts: [context('one', 'c', 'u'), context('two', 'c', 'u')],
      'current-context': 'two',
    });
    const m = mergeKubeconfigFiles([a, b]);
    expect(m.currentContext).to.equal('one');
    expect(m.users.get('u')?.value).to.deep.equal({ token: 'first' });
    expect(m.users.get('u')?.file).to.equal(a);
  });

  it('skips missing KUBECONFIG files; all missing is a usage error', () => {
    const a = file('a.yaml', { clusters: [cluster('c', 'https://a')], contexts: [context('x', 'c')], 'current-context': 'x' });
    expect(loadKubeConfig({}, { KUBECONFIG: [join(dir, 'nope'), a].join(delimiter) }).kc.getCurrentCluster()?.server).to.equal('https://a');
    expect(() => loadKubeConfig({}, { KUBECONFIG: join(dir, 'nope') })).to.throw(UsageError, /does not exist/);
  });

  it('--kubeconfig is the one file, even with KUBECONFIG set', () => {
    const a = file('a.yaml', { clusters: [cluster('c', 'https://a')], contexts: [context('x', 'c')], 'current-context': 'x' });
    const b = file('b.yaml', { clusters: [cluster('c', 'https://b')], contexts: [context('x', 'c')], 'current-context': 'x' });
    expect(loadKubeConfig({ kubeconfig: b }, { KUBECONFIG: a }).kc.getCurrentCluster()?.server).to.equal('https://b');
  });

  it('resolves paths against the folder of the file that names them; PATH commands stay', () => {
    file('certs/ca.crt', 'x');
    file('users/tok', 'secret-token\n');
    file('users/plugin.sh', '#!/bin/sh');
    const a = file('one/a.yaml', { clusters: [cluster('c', 'https://a', { 'certificate-authority': '../certs/ca.crt' })] });
    const b = file('users/b.yaml', {
      users: [
        user('u', { tokenFile: 'tok' }),
        user('e', { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh' } }),
        user('p', { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'aws' } }),
      ],
    });
    const m = mergeKubeconfigFiles([a, b]);
    expect(m.clusters.get('c')?.value['certificate-authority']).to.equal(join(dir, 'certs/ca.crt'));
    expect(m.users.get('u')?.value.tokenFile).to.equal(join(dir, 'users/tok'));
    expect(m.users.get('e')?.value.exec?.command).to.equal(join(dir, 'users/plugin.sh'));
    expect(m.users.get('p')?.value.exec?.command).to.equal('aws');
  });

  it('--context, --cluster and --user override the current context', () => {
    const a = file('a.yaml', {
      clusters: [cluster('c1', 'https://one'), cluster('c2', 'https://two')],
      users: [user('u1', { token: 't1' }), user('u2', { token: 't2' })],
      contexts: [context('x', 'c1', 'u1'), context('y', 'c2', 'u2')],
      'current-context': 'x',
    });
    expect(loadKubeConfig({ kubeconfig: a, context: 'y' }).kc.getCurrentUser()?.token).to.equal('t2');
    const o = loadKubeConfig({ kubeconfig: a, cluster: 'c2', user: 'u2' }).kc;
    expect(o.getCurrentCluster()?.server).to.equal('https://two');
    expect(o.getCurrentUser()?.token).to.equal('t2');
    expect(() => loadKubeConfig({ kubeconfig: a, context: 'z' })).to.throw(UsageError, /context z is not in .*contexts there: x, y/);
    expect(() => loadKubeConfig({ kubeconfig: a, user: 'nobody' })).to.throw(UsageError, /user nobody/);
  });

  it('a tokenFile wins over token, is re-read after a minute, and keeps the last good token', async () => {
    const tok = file('tok', 'one\n');
    let now = 0;
    const s = new TokenFileSource(tok, () => now);
    expect(await s.token()).to.equal('one');
    writeFileSync(tok, 'two');
    expect(await s.token()).to.equal('one');
    now = 61_000;
    expect(await s.token()).to.equal('two');
    rmSync(tok);
    now = 200_000;
    expect(await s.token()).to.equal('two');
    const a = file('a.yaml', {
      clusters: [cluster('c', 'https://a')],
      users: [user('u', { token: 'inline', tokenFile: file('t2', 'fromfile') })],
      contexts: [context('x', 'c', 'u')],
      'current-context': 'x',
    });
    const { kc, credentials } = loadKubeConfig({ kubeconfig: a });
    expect(credentials.kind).to.equal('tokenFile');
    expect(await authOf(kc)!.source.token()).to.equal('fromfile');
    expect(kc.getCurrentUser()?.token).to.equal(undefined);
  });

  it('names the credential kind sent in the one line of a 401', () => {
    const a = file('a.yaml', {
      clusters: [cluster('c', 'https://api.example:6443')],
      users: [user('u', { 'client-certificate-data': 'eA==', 'client-key-data': 'eA==' }), user('n', {})],
      contexts: [context('x', 'c', 'u'), context('y', 'c', 'n')],
      'current-context': 'x',
    });
    const line = refusalLine(loadKubeConfig({ kubeconfig: a }).kc);
    expect(line).to.match(/^cluster https:\/\/api.example:6443 refused the credentials of user u \(context x, certificate sent\): HTTP 401/);
    expect(line).to.not.include('\n');
    expect(refusalLine(loadKubeConfig({ kubeconfig: a, context: 'y' }).kc)).to.include('no credential sent');
  });

  it('refuses removed auth-providers in one line naming the exec plugin that replaces them', () => {
    const a = file('a.yaml', {
      clusters: [cluster('c', 'https://a')],
      users: [user('g', { 'auth-provider': { name: 'gcp' } }), user('z', { 'auth-provider': { name: 'azure' } })],
      contexts: [context('x', 'c', 'g'), context('y', 'c', 'z')],
      'current-context': 'x',
    });
    expect(() => loadKubeConfig({ kubeconfig: a })).to.throw(UsageError, /auth-provider gcp .*gke-gcloud-auth-plugin/);
    expect(() => loadKubeConfig({ kubeconfig: a, context: 'y' })).to.throw(UsageError, /kubelogin/);
  });

  it('refuses what kubectl refuses: a CA with insecure-skip-tls-verify, a missing certificate file, groups without a user', () => {
    const a = file('a.yaml', {
      clusters: [cluster('c', 'https://a', { 'insecure-skip-tls-verify': true, 'certificate-authority-data': 'eA==' }), cluster('d', 'https://d')],
      users: [user('u', { 'client-certificate': 'nope.crt' }), user('g', { 'as-groups': ['x'] })],
      contexts: [context('x', 'c', 'g'), context('y', 'd', 'u'), context('z', 'd', 'g')],
      'current-context': 'x',
    });
    expect(() => loadKubeConfig({ kubeconfig: a })).to.throw(UsageError, /cannot both be set/);
    expect(() => loadKubeConfig({ kubeconfig: a, context: 'y' })).to.throw(UsageError, /client-certificate of user u: .*nope.crt does not exist/);
    expect(() => loadKubeConfig({ kubeconfig: a, context: 'z' })).to.throw(UsageError, /needs a user to impersonate/);
  });

  it('says when TLS is not verified and who is impersonated', async () => {
    const a = file('a.yaml', {
      clusters: [cluster('c', 'https://a', { 'insecure-skip-tls-verify': true })],
      users: [user('u', { token: 't', as: 'jane', 'as-groups': ['devs', 'ops'], 'as-user-extra': { 'example.com/team': ['blue'] } })],
      contexts: [context('x', 'c', 'u')],
      'current-context': 'x',
    });
    const { kc, credentials } = loadKubeConfig({ kubeconfig: a });
    expect(credentials.insecureSkipTLSVerify).to.equal(true);
    expect(credentials.impersonating).to.equal('as jane (groups devs, ops)');
    const headers = (await (kc as import('../../../lib/cluster/credentials.ts').CredentialedKubeConfig).credentialHeaders()) as Record<string, unknown>;
    expect(headers['Impersonate-User']).to.equal('jane');
    expect(headers['Impersonate-Group']).to.deep.equal(['devs', 'ops']);
    expect(headers['Impersonate-Extra-example.com%2Fteam']).to.deep.equal(['blue']);
    // --as and --as-group over the kubeconfig's.
    const f = loadKubeConfig({ kubeconfig: a, as: 'joe', asGroups: ['g'] }).credentials;
    expect(f.impersonating).to.equal('as joe (groups g)');
  });
});
