// RBAC, ServiceAccount tokens, self-subject reviews and Pod Security admission on the
// simulated API server, with the messages the real server writes.

import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { podSecurityAdmission } from '../../../sim/api/admission/podSecurity.ts';
import type { Profile } from '../../../sim/profiles/types.ts';
import { kubectl, kubectlBinaries, PROFILE, raw, startEnv, type Env } from '../../support/simApi.ts';

const SA_USER = 'system:serviceaccount:test:bot';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

async function createServiceAccountToken(env: Env, ns: string, name: string): Promise<string> {
  const sa = await raw(env, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { body: { metadata: { name } } });
  expect(sa.status, sa.body).to.equal(201);
  const tr = await raw(env, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`, {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
  });
  expect(tr.status, tr.body).to.equal(201);
  return tr.json<{ status: { token: string } }>().status.token;
}

function pod(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'pause' }], ...spec } };
}

describe('sim api: RBAC and ServiceAccount tokens', function () {
  this.timeout(60_000);
  let env: Env;
  let token: string;
  before(async () => {
    env = await startEnv();
    token = await createServiceAccountToken(env, 'test', 'bot');
  });
  after(async () => {
    await env?.stop();
  });

  it('authenticates a TokenRequest token as the ServiceAccount and answers 403 with the upstream message', async () => {
    const who = await raw(env, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      token,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(who.json<{ status: { userInfo: { username: string; groups: string[] } } }>().status.userInfo).to.deep.include({
      username: SA_USER,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:test', 'system:authenticated'],
    });
    const list = await raw(env, 'GET', '/api/v1/namespaces/test/pods', { token });
    expect(list.status).to.equal(403);
    expect(list.json()).to.include({
      reason: 'Forbidden',
      message: `pods is forbidden: User "${SA_USER}" cannot list resource "pods" in API group "" in the namespace "test"`,
    });
    const create = await raw(env, 'POST', '/api/v1/namespaces/x/pods', { token, body: pod('p', {}) });
    expect(create.json().message).to.equal(`pods is forbidden: User "${SA_USER}" cannot create resource "pods" in API group "" in the namespace "x"`);
    const node = await raw(env, 'GET', '/api/v1/nodes/win-1/proxy/stats/summary', { token });
    expect(node.json().message).to.equal(
      `nodes "win-1" is forbidden: User "${SA_USER}" cannot get resource "nodes/proxy" in API group "" at the cluster scope`,
    );
    const deploy = await raw(env, 'GET', '/apis/apps/v1/deployments', { token });
    expect(deploy.json().message).to.equal(
      `deployments.apps is forbidden: User "${SA_USER}" cannot list resource "deployments" in API group "apps" at the cluster scope`,
    );
    const metrics = await raw(env, 'GET', '/metrics', { token });
    expect(metrics.status).to.equal(403);
    expect(metrics.json().message).to.equal(`forbidden: User "${SA_USER}" cannot get path "/metrics"`);
    // Discovery and the public paths stay open to every authenticated user.
    expect((await raw(env, 'GET', '/api', { token })).status).to.equal(200);
    expect((await raw(env, 'GET', '/version', { token })).status).to.equal(200);
  });

  it('grants through a Role and RoleBinding in their namespace only', async () => {
    expect(
      (
        await raw(env, 'POST', `${RBAC}/namespaces/test/roles`, {
          body: { metadata: { name: 'pod-reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] },
        })
      ).status,
    ).to.equal(201);
    expect(
      (
        await raw(env, 'POST', `${RBAC}/namespaces/test/rolebindings`, {
          body: {
            metadata: { name: 'bot-reads' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
            subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'test' }],
          },
        })
      ).status,
    ).to.equal(201);
    expect((await raw(env, 'GET', '/api/v1/namespaces/test/pods', { token })).status).to.equal(200);
    expect((await raw(env, 'GET', '/api/v1/namespaces/default/pods', { token })).status).to.equal(403);
    expect((await raw(env, 'POST', '/api/v1/namespaces/test/pods', { token, body: pod('p', {}) })).status).to.equal(403);
    // pods/log is a subresource: the pods rule does not cover it.
    const log = await raw(env, 'GET', '/api/v1/namespaces/test/pods/p/log', { token });
    expect(log.json().message).to.equal(`pods "p" is forbidden: User "${SA_USER}" cannot get resource "pods/log" in API group "" in the namespace "test"`);
  });

  it('aggregates the default view role, including roles labelled into it later', async () => {
    expect(
      (
        await raw(env, 'POST', `${RBAC}/clusterrolebindings`, {
          body: {
            metadata: { name: 'bot-view' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
            subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'test' }],
          },
        })
      ).status,
    ).to.equal(201);
    expect((await raw(env, 'GET', '/apis/apps/v1/deployments', { token })).status).to.equal(200);
    expect((await raw(env, 'GET', '/api/v1/namespaces/default/secrets', { token })).status).to.equal(403);
    expect((await raw(env, 'GET', '/api/v1/nodes', { token })).status).to.equal(403);
    expect(
      (
        await raw(env, 'POST', `${RBAC}/clusterroles`, {
          body: {
            metadata: { name: 'nodes-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
            rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
          },
        })
      ).status,
    ).to.equal(201);
    expect((await raw(env, 'GET', '/api/v1/nodes', { token })).status).to.equal(200);
  });

  it('answers SelfSubjectAccessReview and SelfSubjectRulesReview for the caller', async () => {
    const ssar = (resourceAttributes: Record<string, string>) =>
      raw(env, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        token,
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } },
      }).then(r => r.json<{ status: { allowed: boolean; reason?: string } }>().status);
    expect(await ssar({ verb: 'list', resource: 'pods', namespace: 'test' })).to.deep.equal({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "bot-view" of ClusterRole "view" to ServiceAccount "bot"',
    });
    expect(await ssar({ verb: 'watch', resource: 'pods', namespace: 'test', name: 'p' })).to.have.property('allowed', true);
    expect((await ssar({ verb: 'create', resource: 'pods', namespace: 'test' })).allowed).to.equal(false);
    expect((await ssar({ verb: 'get', resource: 'pods', subresource: 'exec', namespace: 'test' })).allowed).to.equal(false);
    const rules = await raw(env, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      token,
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'test' } },
    });
    const status = rules.json<{ status: { resourceRules: { resources?: string[]; verbs: string[] }[]; incomplete: boolean } }>().status;
    expect(status.incomplete).to.equal(false);
    expect(status.resourceRules).to.deep.include({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] });
    // The admin kubeconfig is system:masters: allowed everything.
    const admin = await raw(env, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: { spec: { resourceAttributes: { verb: 'delete', resource: 'nodes' } } },
    });
    expect(admin.json<{ status: { allowed: boolean } }>().status.allowed).to.equal(true);
  });

  it('refuses short-lived token requests and tokens of a deleted ServiceAccount', async () => {
    const short = await raw(env, 'POST', '/api/v1/namespaces/test/serviceaccounts/bot/token', { body: { spec: { expirationSeconds: 60 } } });
    expect(short.status).to.equal(422);
    expect(short.json().message).to.equal(
      'TokenRequest.authentication.k8s.io "bot" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    const other = await createServiceAccountToken(env, 'test', 'gone');
    expect((await raw(env, 'GET', '/api', { token: other })).status).to.equal(200);
    expect((await raw(env, 'DELETE', '/api/v1/namespaces/test/serviceaccounts/gone')).status).to.equal(200);
    expect((await raw(env, 'GET', '/api', { token: other })).status).to.equal(401);
  });

  it('works with kubectl: create token, auth can-i and the Forbidden error', async function () {
    const bin = kubectlBinaries().get('1.33') ?? [...kubectlBinaries().values()].pop();
    if (!bin) this.skip();
    const created = await kubectl(bin!, env.kubeconfigPath, ['create', 'token', 'bot', '-n', 'test']);
    expect(created.code, created.stderr).to.equal(0);
    const saConfig = join(env.dir, 'kubeconfig-sa');
    writeFileSync(saConfig, env.api.kubeconfig().replace(env.api.token, created.stdout.trim()), { mode: 0o600 });
    expect((await kubectl(bin!, saConfig, ['auth', 'can-i', 'list', 'pods', '-n', 'test'])).stdout.trim()).to.equal('yes');
    expect((await kubectl(bin!, saConfig, ['auth', 'can-i', 'delete', 'pods', '-n', 'test'])).stdout.trim()).to.equal('no');
    const denied = await kubectl(bin!, saConfig, ['get', 'secrets', '-n', 'test']);
    expect(denied.stderr).to.include(
      `Error from server (Forbidden): secrets is forbidden: User "${SA_USER}" cannot list resource "secrets" in API group "" in the namespace "test"`,
    );
  });
});

describe('sim api: pods/exec authorization by version', function () {
  this.timeout(60_000);
  for (const [version, needsCreate] of [
    ['v1.33.1', false],
    ['v1.35.0', true],
  ] as const) {
    it(`${version}: the exec upgrade (a GET) ${needsCreate ? 'also needs create' : 'needs get only'}`, async () => {
      const env = await startEnv({ profile: { ...PROFILE, kubernetesVersion: version } });
      try {
        const token = await createServiceAccountToken(env, 'test', 'bot');
        await raw(env, 'POST', `${RBAC}/namespaces/test/roles`, {
          body: { metadata: { name: 'exec-get' }, rules: [{ apiGroups: [''], resources: ['pods/exec'], verbs: ['get'] }] },
        });
        await raw(env, 'POST', `${RBAC}/namespaces/test/rolebindings`, {
          body: {
            metadata: { name: 'bot' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'exec-get' },
            subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'test' }],
          },
        });
        const r = await raw(env, 'GET', '/api/v1/namespaces/test/pods/p/exec?command=hostname&stdout=true', { token });
        if (needsCreate)
          expect(r.json().message).to.equal(
            `pods "p" is forbidden: User "${SA_USER}" cannot create resource "pods/exec" in API group "" in the namespace "test"`,
          );
        else expect(r.json()).to.include({ code: 400, message: 'Upgrade request required' });
      } finally {
        await env.stop();
      }
    });
  }
});

describe('sim api: Pod Security admission', function () {
  this.timeout(60_000);
  let env: Env;
  const profile: Profile = {
    ...PROFILE,
    podSecurity: {
      defaults: { enforce: 'baseline', warn: 'restricted' },
      exemptions: { namespaces: ['kube-system'], runtimeClasses: ['trusted'] },
      enforceFloor: false,
    },
  };
  const nsWith = async (name: string, labels: Record<string, string>) =>
    expect((await raw(env, 'POST', '/api/v1/namespaces', { body: { metadata: { name, labels } } })).status).to.equal(201);
  before(async () => {
    env = await startEnv({ profile });
    env.store.addAdmission(podSecurityAdmission(env.store, profile));
  });
  after(async () => {
    await env?.stop();
  });

  const hostPod = pod('h', { hostNetwork: true, volumes: [{ name: 'h', hostPath: { path: '/var/log' } }] });

  it('refuses pods at the enforce level with the upstream message, the default applying to unlabelled namespaces', async () => {
    const r = await raw(env, 'POST', '/api/v1/namespaces/test/pods', { body: hostPod });
    expect(r.status).to.equal(403);
    expect(r.json()).to.include({
      reason: 'Forbidden',
      message: 'pods "h" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostPath volumes (volume "h")',
    });
    const hpc = await raw(env, 'POST', '/api/v1/namespaces/test/pods', {
      body: pod('hpc', { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } }),
    });
    expect(hpc.json().message).to.equal(
      'pods "hpc" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)',
    );
    const priv = await raw(env, 'POST', '/api/v1/namespaces/test/pods', {
      body: {
        ...pod('p', {}),
        spec: {
          containers: [
            { name: 'a', image: 'x', securityContext: { privileged: true } },
            { name: 'b', image: 'x', securityContext: { privileged: true }, ports: [{ containerPort: 80, hostPort: 8080 }] },
          ],
        },
      },
    });
    expect(priv.json().message).to.equal(
      'pods "p" is forbidden: violates PodSecurity "baseline:latest": hostPort (container "b" uses hostPort 8080), privileged (containers "a", "b" must not set securityContext.privileged=true)',
    );
  });

  it('lets a privileged namespace label, an exempt namespace or RuntimeClass through', async () => {
    await nsWith('priv', { 'pod-security.kubernetes.io/enforce': 'privileged' });
    expect((await raw(env, 'POST', '/api/v1/namespaces/priv/pods', { body: hostPod })).status).to.equal(201);
    expect((await raw(env, 'POST', '/api/v1/namespaces/kube-system/pods', { body: hostPod })).status).to.equal(201);
    expect(
      (
        await raw(env, 'POST', '/api/v1/namespaces/test/pods', {
          body: { ...hostPod, metadata: { name: 'rc' }, spec: { ...(hostPod.spec as object), runtimeClassName: 'trusted' } },
        })
      ).status,
    ).to.equal(201);
  });

  it('checks restricted with the Windows exemptions from v1.25, and warns at the warn level', async () => {
    await nsWith('strict', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    await nsWith('strict-124', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.24' });
    const win = pod('w', { os: { name: 'windows' } });
    expect((await raw(env, 'POST', '/api/v1/namespaces/strict/pods', { body: win })).json().message).to.equal(
      'pods "w" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)',
    );
    expect((await raw(env, 'POST', '/api/v1/namespaces/strict-124/pods', { body: win })).json().message).to.equal(
      'pods "w" is forbidden: violates PodSecurity "restricted:v1.24": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    const ok = await raw(env, 'POST', '/api/v1/namespaces/strict/pods', {
      body: pod('w2', { os: { name: 'windows' }, securityContext: { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' } } }),
    });
    expect(ok.status).to.equal(201);
    // Unlabelled namespace: default enforce baseline passes, default warn restricted warns.
    const warned = await raw(env, 'POST', '/api/v1/namespaces/test/pods', { body: pod('plain', {}) });
    expect(warned.status).to.equal(201);
    expect(String(warned.headers.warning)).to.include('would violate PodSecurity \\"restricted:latest\\": allowPrivilegeEscalation != false');
  });

  it('only warns about workload templates, never refuses them', async () => {
    const d = await raw(env, 'POST', '/apis/apps/v1/namespaces/strict/deployments', {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'x' }] } },
        },
      },
    });
    expect(d.status).to.equal(201);
    expect(String(d.headers.warning)).to.match(
      /^299 - "would violate PodSecurity \\"restricted:latest\\": allowPrivilegeEscalation != false .*host namespaces \(hostNetwork=true\)/,
    );
  });

  it('refuses malformed labels and reads a malformed one as restricted (fail closed)', async () => {
    const bad = await raw(env, 'POST', '/api/v1/namespaces', {
      body: { metadata: { name: 'typo', labels: { 'pod-security.kubernetes.io/enforce': 'strict' } } },
    });
    expect(bad.status).to.equal(422);
    expect(bad.json().message).to.equal(
      'Namespace "typo" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
    const badVersion = await raw(env, 'POST', '/api/v1/namespaces', {
      body: { metadata: { name: 'typo', labels: { 'pod-security.kubernetes.io/warn-version': '1.30' } } },
    });
    expect(badVersion.json().message).to.equal(
      'Namespace "typo" is invalid: metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"',
    );
    // Written past admission (as a namespace from before the plugin): pods there meet restricted.
    env.store.create(
      'namespaces',
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'legacy', labels: { 'pod-security.kubernetes.io/enforce': 'strict' } } },
      { skipAdmission: true },
    );
    const r = await raw(env, 'POST', '/api/v1/namespaces/legacy/pods', { body: pod('l', {}) });
    expect(r.json().message).to.match(/^pods "l" is forbidden: violates PodSecurity "restricted:latest": /);
  });

  it('with an enforce floor, refuses namespaces labelled weaker than the default', async () => {
    const floored: Profile = { ...profile, podSecurity: { ...profile.podSecurity, enforceFloor: true } };
    env.store.addAdmission(podSecurityAdmission(env.store, floored));
    const r = await raw(env, 'POST', '/api/v1/namespaces', {
      body: { metadata: { name: 'wants-priv', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } },
    });
    expect(r.status).to.equal(403);
    expect(r.json().message).to.equal(
      `namespaces "wants-priv" is forbidden: ValidatingAdmissionPolicy 'pod-security-floor' with binding 'pod-security-floor' denied request: pod-security.kubernetes.io/enforce may not be weaker than the cluster default "baseline"`,
    );
    expect(
      (await raw(env, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'fine', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } } }))
        .status,
    ).to.equal(201);
  });
});

describe('sim api: impersonation (kubectl --as)', function () {
  this.timeout(60_000);
  let env: Env;
  let token: string;
  before(async () => {
    env = await startEnv();
    token = await createServiceAccountToken(env, 'test', 'bot');
  });
  after(async () => {
    await env?.stop();
  });
  const bin = () => kubectlBinaries().get('1.33') ?? [...kubectlBinaries().values()].pop();

  it('acts as the impersonated ServiceAccount, with its groups', async function () {
    if (!bin()) this.skip();
    const who = await kubectl(bin()!, env.kubeconfigPath, ['auth', 'whoami', '--as', SA_USER, '-o', 'json']);
    expect(who.code, who.stderr).to.equal(0);
    expect(JSON.parse(who.stdout).status.userInfo).to.deep.include({
      username: SA_USER,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:test', 'system:authenticated'],
    });
    const pods = await kubectl(bin()!, env.kubeconfigPath, ['get', 'pods', '-n', 'test', '--as', SA_USER]);
    expect(pods.stderr).to.include(`pods is forbidden: User "${SA_USER}" cannot list resource "pods" in API group "" in the namespace "test"`);
  });

  it('adds system:authenticated to impersonated groups (one Impersonate-Group header each), and sends extras', async function () {
    if (!bin()) this.skip();
    const who = await kubectl(bin()!, env.kubeconfigPath, ['auth', 'whoami', '--as', 'jane', '--as-group', 'devs', '--as-group', 'ops', '-o', 'json']);
    expect(who.code, who.stderr).to.equal(0);
    expect(JSON.parse(who.stdout).status.userInfo).to.deep.include({ username: 'jane', groups: ['devs', 'ops', 'system:authenticated'] });
  });

  it('refuses impersonation without the impersonate verb, with the upstream message', async function () {
    if (!bin()) this.skip();
    const saConfig = join(env.dir, 'kubeconfig-imp');
    writeFileSync(saConfig, env.api.kubeconfig().replace(env.api.token, token), { mode: 0o600 });
    const denied = await kubectl(bin()!, saConfig, ['get', 'pods', '--as', 'jane']);
    expect(denied.stderr).to.include(
      `Error from server (Forbidden): users "jane" is forbidden: User "${SA_USER}" cannot impersonate resource "users" in API group "" at the cluster scope`,
    );
  });
});
