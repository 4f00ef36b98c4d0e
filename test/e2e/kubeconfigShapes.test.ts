// The kubeconfigs real clusters hand out, against the simulated cluster: each runs a small real
// selection of suites end to end and gets the admin's verdicts, or is refused with exit 3 and
// one line; nothing is left in the cluster.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execa } from 'execa';
import { delimiter, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runOnSim, type KubeconfigShape, type SimRun } from '../support/simRun.ts';
import type { Profile, SimCluster } from '../../sim/index.ts';
import { parseAllDocuments } from 'yaml';
import { ROOT } from '../support/cli.ts';
import { startConnectProxy, startPrefixFront, startSocks5Proxy } from '../support/proxies.ts';
import { bucketOf, resourceForKind } from '../../sim/api/resources.ts';
import type { KubeObject } from '../../sim/api/store.ts';
import { generateClusterCerts, issueClientCertificate } from '../../sim/api/certs.ts';

/** ci/rbac.yaml's ServiceAccount, ClusterRole and binding, created in the sim. */
function applyCiRbac(sim: SimCluster): void {
  for (const d of parseAllDocuments(readFileSync(join(ROOT, 'ci/rbac.yaml'), 'utf8'))) {
    const o = d.toJS() as KubeObject;
    sim.store.create(bucketOf(resourceForKind(o.apiVersion!, o.kind!)!), o);
  }
}
const CI_SA = 'system:serviceaccount:default:wincheck';

/** A ClusterRoleBinding of the group to the ClusterRole. */
function bindGroup(sim: SimCluster, group: string, clusterRole: string): void {
  sim.store.create(bucketOf({ group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' }), {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `${clusterRole}-${group}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }],
  } as KubeObject);
}
const b64 = (s: string) => Buffer.from(s).toString('base64');

// Plain REST and watches (sched), exec websockets and logs (work), raw GETs through the node proxy (res).
const FEATURES = ['sched.os-selector', 'work.exec-logs', 'res.stats'];
const PLUGIN = join(import.meta.dirname, '../support/execPlugin.mjs');

interface SimAccess {
  server: string;
  caData: string;
  token: string;
}

function accessOf(sim: SimCluster): SimAccess {
  const kc = parse(sim.kubeconfig) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { user: { token: string } }[];
  };
  return { server: kc.clusters[0].cluster.server, caData: kc.clusters[0].cluster['certificate-authority-data'], token: kc.users[0].user.token };
}

function kubeconfig(o: { cluster?: Record<string, unknown>; user?: Record<string, unknown>; context?: boolean }) {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    ...(o.cluster ? { clusters: [{ name: 'sim', cluster: o.cluster }] } : {}),
    ...(o.user ? { users: [{ name: 'me', user: o.user }] } : {}),
    ...(o.context === false ? {} : { contexts: [{ name: 'shape', context: { cluster: 'sim', user: 'me' } }], 'current-context': 'shape' }),
  };
}

function write(dir: string, rel: string, doc: unknown): string {
  const p = join(dir, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, typeof doc === 'string' ? doc : stringify(doc), { mode: 0o600 });
  return p;
}

const verdicts = (r: SimRun) => Object.fromEntries(FEATURES.map(id => [id, r.results.get(id)?.outcome]));

describe('kubeconfig shapes against the sim', function () {
  this.timeout(600_000);
  let admin: SimRun;

  before(async () => {
    admin = await runOnSim(FEATURES);
    expect(Object.values(verdicts(admin))).to.not.include(undefined);
  });

  const sameAsAdmin = (run: SimRun) => {
    expect(run.error).to.equal(undefined);
    expect(verdicts(run)).to.deep.equal(verdicts(admin));
    expect(run.exitCode, run.output.join('\n')).to.equal(admin.exitCode);
    expect(run.leftoverObjects).to.deep.equal([]);
  };
  const refusedInOneLine = (run: SimRun, pattern: RegExp) => {
    expect(run.exitCode).to.equal(3);
    expect(run.error).to.match(pattern);
    expect(run.error).to.not.include('\n');
    expect(run.created).to.deep.equal([]);
  };

  it('KUBECONFIG=a:b with the cluster in one file and the user (a relative tokenFile) in the other', async () => {
    const run = await runOnSim(FEATURES, {
      kubeconfigFor: (sim, dir): KubeconfigShape => {
        const a = accessOf(sim);
        write(dir, 'creds/token', `${a.token}\n`);
        write(dir, 'ca/ca.crt', Buffer.from(a.caData, 'base64').toString());
        const clusterFile = write(dir, 'cluster.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority': 'ca/ca.crt' } }));
        const userFile = write(dir, 'creds/user.yaml', kubeconfig({ user: { tokenFile: 'token' }, context: false }));
        return { env: { KUBECONFIG: [clusterFile, userFile].join(delimiter) } };
      },
    });
    sameAsAdmin(run);
    expect(run.output.join('\n')).to.include('user me (tokenFile)');
  });

  it('an exec plugin (v1) whose token expires every half second: re-run before expiry', async () => {
    // Beside, not in, the run's folder: runOnSim removes that after the run.
    const logDir = mkdtempSync(join(tmpdir(), 'wincheck-plugin-'));
    let log = '';
    const run = await runOnSim(FEATURES, {
      kubeconfigFor: (sim, dir): KubeconfigShape => {
        const a = accessOf(sim);
        log = join(logDir, 'plugin.log');
        const exec = {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [PLUGIN, '--region', 'test'],
          env: [
            { name: 'PLUGIN_TOKEN', value: a.token },
            { name: 'PLUGIN_EXPIRES_S', value: '0.5' },
            { name: 'PLUGIN_LOG', value: log },
          ],
          interactiveMode: 'IfAvailable',
          provideClusterInfo: true,
        };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { exec } })) };
      },
    });
    sameAsAdmin(run);
    const runs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l) as { args: string[]; interactive: boolean; server: string });
    expect(runs.length).to.be.greaterThan(1);
    expect(runs[0]).to.include({ interactive: false });
    expect(runs[0].args).to.deep.equal(['--region', 'test']);
    expect(runs[0].server).to.match(/^https:\/\/127\./);
    rmSync(logDir, { recursive: true, force: true });
  });

  it('a client certificate and key by relative path (CN the user, O a group bound to the ci/rbac.yaml ClusterRole)', async () => {
    const run = await runOnSim(FEATURES, {
      kubeconfigFor: (sim, dir): KubeconfigShape => {
        applyCiRbac(sim);
        bindGroup(sim, 'wincheck-ci', 'wincheck');
        const a = accessOf(sim);
        const issued = sim.clientCertificate('jane', ['wincheck-ci']);
        write(dir, 'pki/jane.crt', issued.certPem);
        write(dir, 'pki/jane.key', issued.keyPem);
        const user = { 'client-certificate': 'pki/jane.crt', 'client-key': 'pki/jane.key' };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user })) };
      },
    });
    sameAsAdmin(run);
    expect(run.output.join('\n')).to.include('user me (certificate)');
  });

  it('a client certificate and key by data (O=system:masters)', async () => {
    const run = await runOnSim(FEATURES, {
      kubeconfigFor: (sim, dir): KubeconfigShape => {
        const a = accessOf(sim);
        const issued = sim.clientCertificate('ops-admin', ['system:masters']);
        const user = { 'client-certificate-data': b64(issued.certPem), 'client-key-data': b64(issued.keyPem) };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user })) };
      },
    });
    sameAsAdmin(run);
  });

  it('a client certificate from another CA: exit 3, one line naming the certificate', async () => {
    const run = await runOnSim(FEATURES, {
      expectError: true,
      kubeconfigFor: (sim, dir) => {
        const a = accessOf(sim);
        const other = generateClusterCerts();
        const issued = issueClientCertificate(other, 'jane', ['system:masters']);
        const user = { 'client-certificate-data': b64(issued.certPem), 'client-key-data': b64(issued.keyPem) };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user })) };
      },
    });
    refusedInOneLine(
      run,
      /^cluster https:\/\/127\.[\d.:]+ refused the credentials of user me \(context shape, certificate sent\): HTTP 401 Unauthorized; check that the client certificate/,
    );
  });

  describe('TokenRequest tokens that expire mid-run (the token clock at 1200 times real time: 600 s is 0.5 s)', () => {
    // Windows containers take a second to start, so the run outlives several tokens.
    const fastTokens = (p: Profile) => {
      p.tokenLifetimeScale = 1 / 1200;
      p.latencies = { ...p.latencies, windowsStartMs: 1_000 };
    };

    it('an exec plugin asking the cluster for a token and not saying when it expires: re-run on each 401, the admin verdicts', async () => {
      const logDir = mkdtempSync(join(tmpdir(), 'wincheck-plugin-'));
      const log = join(logDir, 'plugin.log');
      const run = await runOnSim(FEATURES, {
        edit: fastTokens,
        kubeconfigFor: (sim, dir): KubeconfigShape => {
          applyCiRbac(sim);
          const a = accessOf(sim);
          const exec = {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: process.execPath,
            args: [PLUGIN],
            env: [
              { name: 'PLUGIN_TOKEN_REQUEST', value: 'default/wincheck' },
              { name: 'PLUGIN_ADMIN_TOKEN', value: a.token },
              { name: 'PLUGIN_LOG', value: log },
            ],
            provideClusterInfo: true,
            interactiveMode: 'Never',
          };
          return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { exec } })) };
        },
      });
      sameAsAdmin(run);
      // The first run, then one per expiry the run outlived (each seen as a 401).
      const runs = readFileSync(log, 'utf8').trim().split('\n').length;
      rmSync(logDir, { recursive: true, force: true });
      expect(runs, `plugin runs over ${run.output.length} output lines`).to.be.greaterThan(1);
    });

    it('a tokenFile the kubelet-like rotator rewrites: re-read after a 401, the admin verdicts, cleanup included', async () => {
      let rotations = 0;
      let timer: NodeJS.Timeout | undefined;
      const run = await runOnSim(FEATURES, {
        edit: fastTokens,
        kubeconfigFor: (sim, dir): KubeconfigShape => {
          applyCiRbac(sim);
          const a = accessOf(sim);
          const file = write(dir, 'sa/token', sim.serviceAccountToken('default', 'wincheck', 600));
          // As the kubelet rotates a projected token (at 80% of its life): here every 0.4 s.
          timer = setInterval(() => {
            writeFileSync(file, sim.serviceAccountToken('default', 'wincheck', 600));
            rotations++;
          }, 400);
          const user = { tokenFile: 'sa/token' };
          return {
            kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user })),
            close: async () => clearInterval(timer),
          };
        },
      });
      sameAsAdmin(run);
      expect(rotations).to.be.greaterThan(2);
    });

    it('a tokenFile nobody rotates: the run ends as error naming the user and context, cleanup attempted', async () => {
      const run = await runOnSim(FEATURES, {
        edit: fastTokens,
        expectError: true,
        kubeconfigFor: (sim, dir): KubeconfigShape => {
          applyCiRbac(sim);
          const a = accessOf(sim);
          write(dir, 'sa/token', sim.serviceAccountToken('default', 'wincheck', 600));
          return {
            kubeconfig: write(
              dir,
              'kc.yaml',
              kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { tokenFile: 'sa/token' } }),
            ),
          };
        },
      });
      const all = run.output.join('\n');
      expect(run.exitCode, all).to.equal(1);
      const refused = all.split('\n').filter(l => l.includes('refused the credentials'));
      expect(refused, all).to.have.length(1);
      expect(refused[0]).to.match(
        /^Error: cluster \S+ refused the credentials of user me \(context shape, tokenFile sent\) mid-run \(\w+ \/api\S+\): HTTP 401 Unauthorized; check the token in \S+ is current$/,
      );
      expect(Object.values(verdicts(run))).to.deep.equal(['error', 'error', 'error']);
      // The teardown tried, was refused too, and printed the command that removes what is left.
      expect(all).to.match(/Error: namespace \(teardown\): [^\n]*HTTP 401[^\n]*; run "wincheck cleanup --kubeconfig \S+ --context shape --run-id \w+"/);
    });
  });

  it('a rejected token: exit 3, one line naming server, context, user and the kind sent', async () => {
    const run = await runOnSim(FEATURES, {
      expectError: true,
      kubeconfigFor: (sim, dir) => {
        const a = accessOf(sim);
        return {
          kubeconfig: write(
            dir,
            'kc.yaml',
            kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { token: 'not-a-token' } }),
          ),
        };
      },
    });
    refusedInOneLine(run, /^cluster https:\/\/127\.[\d.:]+ refused the credentials of user me \(context shape, token sent\): HTTP 401 Unauthorized; check/);
  });

  it('no credential at all: exit 3, one line, not a list of permissions', async () => {
    const run = await runOnSim(FEATURES, {
      expectError: true,
      kubeconfigFor: (sim, dir) => {
        const a = accessOf(sim);
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: {} })) };
      },
    });
    refusedInOneLine(run, /refused the credentials of user me \(context shape, no credential sent\) at the RBAC preflight: HTTP 401/);
  });

  it('a missing exec plugin: exit 3, one line with its installHint', async () => {
    const run = await runOnSim(FEATURES, {
      expectError: true,
      kubeconfigFor: (sim, dir) => {
        const a = accessOf(sim);
        const exec = {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: 'wincheck-no-such-plugin',
          installHint: 'Install it with:\n  brew install no-such-plugin\n',
        };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { exec } })) };
      },
    });
    refusedInOneLine(run, /^exec plugin "wincheck-no-such-plugin" was not found on PATH; Install it with: brew install no-such-plugin \(context shape\)/);
  });

  it('an exec plugin with interactiveMode Always and no terminal: exit 3, one line, as kubectl refuses it', async () => {
    const run = await runOnSim(FEATURES, {
      expectError: true,
      kubeconfigFor: (sim, dir) => {
        const a = accessOf(sim);
        const exec = { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [PLUGIN], interactiveMode: 'Always' };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { exec } })) };
      },
    });
    refusedInOneLine(run, /^exec plugin "[^"]+" needs a terminal \(interactiveMode: Always\) and standard input is not one \(context shape\)$/);
  });

  it('a failing exec plugin: exit 3, one line with its stderr', async () => {
    const run = await runOnSim(FEATURES, {
      expectError: true,
      kubeconfigFor: (sim, dir) => {
        const a = accessOf(sim);
        const exec = {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [PLUGIN],
          env: [{ name: 'PLUGIN_FAIL', value: 'error: the SSO session has expired' }],
          interactiveMode: 'Never',
        };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { exec } })) };
      },
    });
    refusedInOneLine(run, /^exec plugin "[^"]+" failed \(exit 1\): error: the SSO session has expired \(context shape\)$/);
  });

  it('a server behind a path prefix on its own CA, reached through an HTTP CONNECT proxy (proxy-url)', async () => {
    let tunnels: string[] = [];
    let served: string[] = [];
    const run = await runOnSim(FEATURES, {
      kubeconfigFor: async (sim, dir): Promise<KubeconfigShape> => {
        const a = accessOf(sim);
        const front = await startPrefixFront(a.server, '/k8s/clusters/c-m-x1');
        const proxy = await startConnectProxy();
        tunnels = proxy.tunnels;
        served = front.tunnels;
        const cluster = { server: front.server, 'certificate-authority-data': Buffer.from(front.caPem).toString('base64'), 'proxy-url': proxy.url };
        return {
          kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster, user: { token: a.token } })),
          close: async () => {
            await proxy.close();
            await front.close();
          },
        };
      },
    });
    sameAsAdmin(run);
    expect(tunnels.length).to.be.greaterThan(0);
    expect(served.filter(p => !p.startsWith('/k8s/clusters/c-m-x1/'))).to.deep.equal([]);
    expect(served.some(p => p.includes('/exec?'))).to.equal(true);
    expect(served).to.include('/k8s/clusters/c-m-x1/version');
    expect(run.output.join('\n')).to.include('through proxy http://127.0.0.1:');
  });

  it('an https proxy-url (TLS to the proxy, verified as client-go does: against the kubeconfig CA, here a bundle)', async () => {
    let tunnels: string[] = [];
    const run = await runOnSim(FEATURES, {
      kubeconfigFor: async (sim, dir): Promise<KubeconfigShape> => {
        const a = accessOf(sim);
        const proxyCerts = generateClusterCerts(undefined, 'corporate-proxy-ca');
        const proxy = await startConnectProxy({}, { key: proxyCerts.serverKeyPem, cert: proxyCerts.serverCertPem });
        tunnels = proxy.tunnels;
        const bundle = Buffer.from(a.caData, 'base64').toString() + proxyCerts.caPem;
        const cluster = { server: a.server, 'certificate-authority-data': b64(bundle), 'proxy-url': proxy.url };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster, user: { token: a.token } })), close: () => proxy.close() };
      },
    });
    sameAsAdmin(run);
    expect(tunnels.length).to.be.greaterThan(0);
    expect(run.output.join('\n')).to.include('through proxy https://127.0.0.1:');
  });

  it('a socks5 proxy-url', async () => {
    let tunnels: string[] = [];
    const run = await runOnSim(FEATURES, {
      kubeconfigFor: async (sim, dir): Promise<KubeconfigShape> => {
        const a = accessOf(sim);
        const proxy = await startSocks5Proxy();
        tunnels = proxy.tunnels;
        const cluster = { server: a.server, 'certificate-authority-data': a.caData, 'proxy-url': proxy.url };
        return { kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster, user: { token: a.token } })), close: () => proxy.close() };
      },
    });
    sameAsAdmin(run);
    expect(tunnels.length).to.be.greaterThan(0);
  });

  it('HTTPS_PROXY for a server named by host (tls-server-name for its certificate); NO_PROXY exempts it', async () => {
    let tunnels: string[] = [];
    const shape =
      (noProxy: string) =>
      async (sim: SimCluster, dir: string): Promise<KubeconfigShape> => {
        const a = accessOf(sim);
        const proxy = await startConnectProxy({ 'api.wincheck.test': '127.0.0.1' });
        tunnels = proxy.tunnels;
        const cluster = { server: a.server.replace('127.0.0.1', 'api.wincheck.test'), 'certificate-authority-data': a.caData, 'tls-server-name': 'localhost' };
        return {
          kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster, user: { token: a.token } })),
          env: { HTTPS_PROXY: proxy.url, NO_PROXY: noProxy },
          close: () => proxy.close(),
        };
      };
    sameAsAdmin(await runOnSim(FEATURES, { kubeconfigFor: shape('example.com') }));
    expect(tunnels.length).to.be.greaterThan(0);
    // Exempted, the name does not resolve: the run cannot reach the server.
    const direct = await runOnSim(FEATURES, { expectError: true, kubeconfigFor: shape('.wincheck.test') });
    expect(tunnels).to.deep.equal([]);
    expect(direct.exitCode).to.equal(3);
    expect(direct.error, direct.error).to.match(/^cluster https:\/\/api.wincheck.test:\d+ is unreachable: GET \/version: (ENOTFOUND|EAI_AGAIN)/);
  });

  it("impersonating a ServiceAccount with ci/rbac.yaml's rights (as:) gets the admin's verdicts", async () => {
    const run = await runOnSim(FEATURES, {
      kubeconfigFor: (sim, dir) => {
        applyCiRbac(sim);
        const a = accessOf(sim);
        return {
          kubeconfig: write(
            dir,
            'kc.yaml',
            kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { token: a.token, as: CI_SA } }),
          ),
        };
      },
    });
    sameAsAdmin(run);
    expect(run.output.join('\n')).to.include(`as ${CI_SA}`);
  });

  it('impersonating a ServiceAccount without rights (--as): refused as that account, the permission list', async () => {
    const run = await runOnSim(FEATURES, {
      expectError: true,
      kubeconfigFor: (sim, dir) => {
        const a = accessOf(sim);
        return {
          kubeconfig: write(dir, 'kc.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { token: a.token } })),
          flags: { as: 'system:serviceaccount:default:nobody' },
        };
      },
    });
    expect(run.exitCode).to.equal(3);
    expect(run.error).to.include('permission(s) missing; nothing was created').and.include('missing permission: list nodes');
    expect(run.created).to.deep.equal([]);
  });

  it('kubectl accepts the same shapes against the sim (merged files with a relative tokenFile, an exec plugin, a path prefix behind a CONNECT proxy, an https proxy; an Always plugin refused)', async function () {
    const kubectlOk = await execa('kubectl', ['version', '--client'], { reject: false });
    if (kubectlOk.exitCode !== 0) this.skip();
    const answers: string[] = [];
    await runOnSim(['sched.os-selector'], {
      kubeconfigFor: async (sim, dir): Promise<KubeconfigShape> => {
        const a = accessOf(sim);
        const get = async (env: Record<string, string>, args: string[] = []) => {
          const r = await execa('kubectl', [...args, 'get', 'nodes', '-o', 'name'], { env: { ...env, HOME: dir }, reject: false });
          answers.push(r.exitCode === 0 ? `ok ${r.stdout.split('\n').length}` : `failed: ${r.stderr}`);
        };
        write(dir, 'creds/token', `${a.token}\n`);
        const clusterFile = write(dir, 'cluster.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData } }));
        const userFile = write(dir, 'creds/user.yaml', kubeconfig({ user: { tokenFile: 'token' }, context: false }));
        await get({ KUBECONFIG: [clusterFile, userFile].join(delimiter) });
        const exec = {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [PLUGIN],
          env: [
            { name: 'PLUGIN_TOKEN', value: a.token },
            { name: 'PLUGIN_EXPIRES_S', value: '60' },
          ],
          interactiveMode: 'Never',
          provideClusterInfo: true,
        };
        await get({}, [
          '--kubeconfig',
          write(dir, 'exec.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { exec } })),
        ]);
        const front = await startPrefixFront(a.server, '/k8s/clusters/c-m-x1');
        const proxy = await startConnectProxy();
        const cluster = { server: front.server, 'certificate-authority-data': Buffer.from(front.caPem).toString('base64'), 'proxy-url': proxy.url };
        await get({}, ['--kubeconfig', write(dir, 'prefix.yaml', kubeconfig({ cluster, user: { token: a.token } }))]);
        await proxy.close();
        await front.close();
        // An https proxy whose certificate only the kubeconfig's CA bundle vouches for.
        const proxyCerts = generateClusterCerts(undefined, 'corporate-proxy-ca');
        const tlsProxy = await startConnectProxy({}, { key: proxyCerts.serverKeyPem, cert: proxyCerts.serverCertPem });
        const bundle = b64(Buffer.from(a.caData, 'base64').toString() + proxyCerts.caPem);
        const viaTls = { server: a.server, 'certificate-authority-data': bundle, 'proxy-url': tlsProxy.url };
        await get({}, ['--kubeconfig', write(dir, 'https-proxy.yaml', kubeconfig({ cluster: viaTls, user: { token: a.token } }))]);
        await tlsProxy.close();
        const always = { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [PLUGIN], interactiveMode: 'Always' };
        await get({}, [
          '--kubeconfig',
          write(dir, 'always.yaml', kubeconfig({ cluster: { server: a.server, 'certificate-authority-data': a.caData }, user: { exec: always } })),
        ]);
        return { kubeconfig: join(dir, 'kubeconfig') };
      },
    });
    const nodes = `ok ${answers[0]?.split(' ')[1]}`;
    expect(answers.slice(0, 4), answers.join('\n')).to.deep.equal([nodes, nodes, nodes, nodes]);
    // kubectl without a terminal refuses an interactiveMode: Always plugin, as the harness does.
    expect(answers[4]).to.match(/^failed: [\s\S]*standard input is not a terminal/);
    expect(answers[0]).to.match(/^ok \d+$/);
  });
});
