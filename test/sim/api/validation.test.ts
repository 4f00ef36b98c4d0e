// Admission (sim/api/validation.ts) against the API server's behaviour: defaults,
// schema errors with field paths, the Windows pod rules, env names by version.

import { expect } from 'chai';
import { createAdmission } from '../../../sim/api/validation/index.ts';
import { StoreError, type Admission, type KubeObject } from '../../../sim/api/store.ts';
import type { Profile } from '../../../sim/profiles/types.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';

function profile(extra: Partial<Profile> = {}): Profile {
  return { name: 't', kubernetesVersion: 'v1.33.2', nodes: [], network: { mode: 'l2bridge', cni: 'flannel' }, addons: {}, ...extra };
}

function pod(spec: Record<string, unknown>, name = 'p'): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'img:1' }], ...spec } };
}

function rejects(adm: Admission, bucket: string, obj: KubeObject, old?: KubeObject): StoreError {
  try {
    adm(bucket, old ? 'update' : 'create', structuredClone(obj), old);
  } catch (e) {
    expect(e).to.be.instanceOf(StoreError);
    return e as StoreError;
  }
  throw new Error('expected a rejection');
}

describe('sim admission: defaults', () => {
  const adm = createAdmission(profile());

  it('defaults a pod as the API server does', () => {
    const out = adm('pods', 'create', pod({ containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] }), undefined);
    const spec = out.spec as Record<string, unknown> & { containers: Record<string, unknown>[]; tolerations: unknown[] };
    expect(spec).to.include({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      serviceAccountName: 'default',
      enableServiceLinks: true,
      priority: 0,
    });
    expect(spec.securityContext).to.deep.equal({});
    expect(spec.containers[0]).to.include({ imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
    expect(spec.containers[0].ports).to.deep.equal([{ containerPort: 80, protocol: 'TCP' }]);
    expect(spec.tolerations).to.deep.include({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
    expect(spec.tolerations).to.deep.include({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  });

  it('picks imagePullPolicy from the tag', () => {
    const out = adm(
      'pods',
      'create',
      pod({
        containers: [
          { name: 'a', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' },
          { name: 'b', image: 'localhost:5000/x:latest' },
          { name: 'c', image: 'localhost:5000/x' },
        ],
      }),
      undefined,
    );
    const cs = (out.spec as { containers: { imagePullPolicy: string }[] }).containers;
    expect(cs.map(c => c.imagePullPolicy)).to.deep.equal(['IfNotPresent', 'Always', 'Always']);
  });

  it('defaults Deployment, Service, Secret and Namespace', () => {
    const d = adm(
      'deployments.apps',
      'create',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', namespace: 'n' },
        spec: {
          selector: { matchLabels: { app: 'd' } },
          template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } },
        },
      },
      undefined,
    );
    expect(d.spec).to.deep.include({
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    });
    expect((d.spec as { template: { spec: Record<string, unknown> } }).template.spec).to.include({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    const s = adm(
      'services',
      'create',
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'n' }, spec: { ports: [{ port: 80 }] } },
      undefined,
    );
    expect(s.spec).to.deep.include({ type: 'ClusterIP', sessionAffinity: 'None', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] });
    const sec = adm('secrets', 'create', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x', namespace: 'n' } }, undefined);
    expect(sec.type).to.equal('Opaque');
    const ns = adm('namespaces', 'create', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wincheck-1' } }, undefined);
    expect(ns.spec).to.deep.equal({ finalizers: ['kubernetes'] });
    expect(ns.status).to.deep.equal({ phase: 'Active' });
    expect(ns.metadata.labels).to.deep.equal({ 'kubernetes.io/metadata.name': 'wincheck-1' });
  });
});

describe('sim admission: validation', () => {
  const adm = createAdmission(profile());

  it('rejects a non-integer containerPort with its field path', () => {
    const e = rejects(adm, 'pods', pod({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: '80' }] }] }));
    expect(e.code).to.equal(422);
    expect(e.reason).to.equal('Invalid');
    expect(e.message).to.equal('Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: "80": must be integer');
    expect(e.details?.causes?.[0]).to.deep.equal({
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "80": must be integer',
      field: 'spec.containers[0].ports[0].containerPort',
    });
  });

  it('requires containers, container names and images', () => {
    expect(rejects(adm, 'pods', pod({ containers: [] })).message).to.equal('Pod "p" is invalid: spec.containers: Required value');
    const e = rejects(adm, 'pods', pod({ containers: [{ name: 'c' }] }));
    expect(e.message).to.equal('Pod "p" is invalid: spec.containers[0].image: Required value');
    expect(rejects(adm, 'pods', pod({ containers: [{ image: 'x' }] })).details?.causes?.[0].field).to.equal('spec.containers[0].name');
  });

  it('rejects an unsupported enum value and a bad name', () => {
    const e = rejects(adm, 'pods', pod({ restartPolicy: 'Sometimes' }));
    expect(e.message).to.match(/^Pod "p" is invalid: spec\.restartPolicy: Unsupported value: "Sometimes": supported values: /);
    expect(e.details?.causes?.[0].reason).to.equal('FieldValueNotSupported');
    const n = rejects(adm, 'pods', pod({}, 'Bad_Name'));
    expect(n.message).to.contain('metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain');
  });

  it('rejects bad label values', () => {
    const o = pod({});
    o.metadata.labels = { app: 'not ok' };
    expect(rejects(adm, 'pods', o).message).to.contain('metadata.labels: Invalid value: "not ok": a valid label must be an empty string');
  });

  it('checks the spec.os.name value', () => {
    const e = rejects(adm, 'pods', pod({ os: { name: 'macos' } }));
    expect(e.message).to.equal('Pod "p" is invalid: spec.os.name: Unsupported value: "macos": supported values: "linux", "windows"');
  });

  it('keeps pod specs immutable except images', () => {
    const old = adm('pods', 'create', pod({}), undefined);
    const img = structuredClone(old);
    (img.spec as { containers: { image: string }[] }).containers[0].image = 'img:2';
    expect(() => adm('pods', 'update', img, old)).not.to.throw();
    const changed = structuredClone(old);
    (changed.spec as Record<string, unknown>).dnsPolicy = 'Default';
    const e = rejects(adm, 'pods', changed, old);
    expect(e.message).to.match(/^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
  });

  it('checks workload selectors against template labels', () => {
    const e = rejects(adm, 'deployments.apps', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'n' },
      spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'y' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    expect(e.message).to.equal(
      'Deployment.apps "d" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`',
    );
    expect(e.details).to.include({ kind: 'Deployment', group: 'apps', name: 'd' });
  });

  it('keeps a Service clusterIP', () => {
    const svc = (ip: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'n' },
      spec: { clusterIP: ip, ports: [{ port: 80 }] },
    });
    const e = rejects(adm, 'services', svc('10.0.0.2'), svc('10.0.0.1'));
    expect(e.message).to.equal('Service "s" is invalid: spec.clusterIP: Invalid value: "10.0.0.2": field is immutable');
  });
});

describe('sim admission: Windows pod rules', () => {
  const adm = createAdmission(profile());
  const podLevel: [string, unknown][] = [
    ['appArmorProfile', { type: 'RuntimeDefault' }],
    ['seLinuxOptions', { level: 's0' }],
    ['seccompProfile', { type: 'RuntimeDefault' }],
    ['fsGroup', 2000],
    ['fsGroupChangePolicy', 'Always'],
    ['sysctls', [{ name: 'net.core.somaxconn', value: '1024' }]],
    ['runAsUser', 1000],
    ['runAsGroup', 1000],
    ['supplementalGroups', [4000]],
    ['supplementalGroupsPolicy', 'Merge'],
    ['seLinuxChangePolicy', 'Recursive'],
  ];
  for (const [field, value] of podLevel) {
    it(`forbids spec.securityContext.${field}`, () => {
      const e = rejects(adm, 'pods', pod({ os: { name: 'windows' }, securityContext: { [field]: value } }));
      expect(e.message).to.equal(`Pod "p" is invalid: spec.securityContext.${field}: Forbidden: cannot be set for a windows pod`);
      expect(e.details?.causes).to.deep.equal([
        { reason: 'FieldValueForbidden', message: 'Forbidden: cannot be set for a windows pod', field: `spec.securityContext.${field}` },
      ]);
    });
  }
  for (const [field, value] of [
    ['hostUsers', false],
    ['hostPID', true],
    ['hostIPC', true],
    ['shareProcessNamespace', true],
  ] as const) {
    it(`forbids spec.${field}`, () => {
      const e = rejects(adm, 'pods', pod({ os: { name: 'windows' }, [field]: value }));
      expect(e.details?.causes?.map(c => c.field)).to.deep.equal([`spec.${field}`]);
    });
  }
  const containerLevel: [string, unknown][] = [
    ['appArmorProfile', { type: 'RuntimeDefault' }],
    ['seLinuxOptions', { level: 's0' }],
    ['seccompProfile', { type: 'RuntimeDefault' }],
    ['capabilities', { add: ['NET_ADMIN'] }],
    ['readOnlyRootFilesystem', true],
    ['privileged', true],
    ['allowPrivilegeEscalation', false],
    ['procMount', 'Default'],
    ['runAsUser', 1000],
    ['runAsGroup', 1000],
  ];
  for (const [field, value] of containerLevel) {
    it(`forbids spec.containers[0].securityContext.${field}`, () => {
      const e = rejects(adm, 'pods', pod({ os: { name: 'windows' }, containers: [{ name: 'c', image: 'i', securityContext: { [field]: value } }] }));
      expect(e.message).to.equal(`Pod "p" is invalid: spec.containers[0].securityContext.${field}: Forbidden: cannot be set for a windows pod`);
    });
  }

  it('lists several errors in brackets, init containers and templates included', () => {
    const e = rejects(
      adm,
      'pods',
      pod({
        os: { name: 'windows' },
        securityContext: { runAsUser: 1 },
        initContainers: [{ name: 'i', image: 'x', securityContext: { privileged: true } }],
        containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }],
      }),
    );
    expect(e.message).to.equal(
      'Pod "p" is invalid: [spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod, ' +
        'spec.initContainers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod, ' +
        'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod]',
    );
    const d = rejects(adm, 'deployments.apps', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'n' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: {
          metadata: { labels: { a: 'b' } },
          spec: { os: { name: 'windows' }, containers: [{ name: 'c', image: 'i', securityContext: { runAsUser: 5 } }] },
        },
      },
    });
    expect(d.details?.causes?.[0].field).to.equal('spec.template.spec.containers[0].securityContext.runAsUser');
  });

  it('accepts Linux-only fields without spec.os, and Windows options with it', () => {
    expect(() =>
      adm(
        'pods',
        'create',
        pod({ securityContext: { runAsUser: 1 }, containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] }),
        undefined,
      ),
    ).not.to.throw();
    expect(() =>
      adm(
        'pods',
        'create',
        pod({ os: { name: 'windows' }, hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } }),
        undefined,
      ),
    ).not.to.throw();
  });

  it('does not enforce them when the profile lifts the limitation', () => {
    const lifted = createAdmission(profile({ limitations: { linuxFieldsRejected: false } }));
    expect(() => lifted('pods', 'create', pod({ os: { name: 'windows' }, securityContext: { runAsUser: 1 } }), undefined)).not.to.throw();
  });

  it('rejects any spec.os when the pod-os-field behaviour is broken', () => {
    const broken = createAdmission(profile({ breaks: ['pod-os-field'] }));
    expect(rejects(broken, 'pods', pod({ os: { name: 'windows' } })).details?.causes?.[0].field).to.equal('spec.os');
    expect(() => broken('pods', 'create', pod({}), undefined)).not.to.throw();
  });
});

describe('sim admission: env var names by version', () => {
  const colon = pod({ containers: [{ name: 'c', image: 'i', env: [{ name: 'Logging:LogLevel', value: 'x' }] }] });

  it('rejects a colon before 1.32', () => {
    const e = rejects(createAdmission(profile({ kubernetesVersion: 'v1.31.4' })), 'pods', colon);
    expect(e.message).to.equal(
      'Pod "p" is invalid: spec.containers[0].env[0].name: Invalid value: "Logging:LogLevel": ' +
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit " +
        "(e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
    );
  });

  it('accepts it from 1.32, or when the profile lifts the limitation', () => {
    expect(() => createAdmission(profile({ kubernetesVersion: 'v1.32.0' }))('pods', 'create', structuredClone(colon), undefined)).not.to.throw();
    expect(() =>
      createAdmission(profile({ kubernetesVersion: 'v1.30.6', limitations: { envColonName: false } }))('pods', 'create', structuredClone(colon), undefined),
    ).not.to.throw();
  });

  it('still rejects "=" from 1.32', () => {
    const e = rejects(createAdmission(profile()), 'pods', pod({ containers: [{ name: 'c', image: 'i', env: [{ name: 'A=B' }] }] }));
    expect(e.message).to.contain("must consist only of printable ASCII characters other than '='");
  });
});

describe('sim admission: Secret stringData', () => {
  it('merges stringData into data as base64, stringData winning, and drops it', () => {
    const admit = createAdmission(loadProfile('default'));
    const out = admit(
      'secrets',
      'create',
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's', namespace: 'default' },
        data: { a: Buffer.from('old').toString('base64'), b: Buffer.from('keep').toString('base64') },
        stringData: { a: 'new value' },
      },
      undefined,
    ) as { data?: Record<string, string>; stringData?: unknown };
    expect(out.stringData).to.equal(undefined);
    expect(Buffer.from(out.data!.a, 'base64').toString()).to.equal('new value');
    expect(Buffer.from(out.data!.b, 'base64').toString()).to.equal('keep');
  });
});
