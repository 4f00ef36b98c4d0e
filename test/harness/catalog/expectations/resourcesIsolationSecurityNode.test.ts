// Resources, isolation, security and node: expectations per discovered cluster, and the pure
// rules and parsers their probes use (real Windows output from docs/windows-commands.md).

import { expect } from 'chai';
import { ApiException } from '@kubernetes/client-node';
import { unmetNeed } from '../../../../lib/catalog/needs.ts';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import type { Feature } from '../../../../lib/catalog/types.ts';
import { parseQuantity } from '../../../../util/quantity.ts';
import { allowedSkew, buildSupport, parseHnsNetworks, serviceState, skewOf, vEthernetAdapters } from '../../../../lib/catalog/node/node.ts';
import { fieldVerdict, LINUX_ONLY_FIELDS, valueAt } from '../../../../lib/catalog/sec/security.ts';
import { resolveConfig } from '../../../../lib/config/resolve.ts';
import { validateConfig } from '../../../../lib/config/load.ts';
import { applyNodeAccessMode, planNodeAccess } from '../../../../lib/transports/nodeAccess.ts';
import { hostProcessPodName } from '../../../../lib/transports/hostProcess.ts';
import { renderFixture } from '../../../../lib/fixtures/render.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';
import { DOCUMENTED } from '../../../e2e/areas/resourcesIsolationSecurityNode.expected.ts';

let catalog: Feature[];
const feature = (id: string) => catalog.find(f => f.id === id)!;
const v = (minor: number, patch = 0) => ({ gitVersion: `v1.${minor}.${patch}`, major: 1, minor });

const MINE = [
  'res.limits',
  'res.cpu-limit-enforced',
  'res.memory-no-oomkill',
  'res.node-reserved',
  'res.stats',
  'res.stats-under-load',
  'res.kubelet-resource-metrics',
  'res.metrics-api',
  'res.directx-device',
  'iso.process',
  'iso.hyperv-runtimeclass',
  'iso.hyperv-annotation',
  'iso.hostprocess',
  'iso.hostprocess-volumes',
  'iso.hostprocess-incluster',
  'iso.hostprocess-init',
  'iso.hostprocess-localgroup',
  'iso.hostprocess-stats',
  'iso.hostprocess-metrics',
  'iso.hostprocess-command-paths',
  'sec.run-as-username',
  'sec.linux-fields-rejected',
  'sec.linux-fields-ignored',
  'sec.privileged',
  'node.services',
  'node.hns-network',
  'node.runtime',
  'node.os-supported',
  'node.version-skew',
  'node.pause-image',
  'node.boot-id',
];

describe('features-risn: expectations', () => {
  before(async () => {
    catalog = await loadCatalog();
  });

  it('has every feature of the four sections, each with a reason and a source', () => {
    for (const id of MINE) {
      const f = feature(id);
      expect(f, id).to.exist;
      const e = f.expect(cluster());
      expect(e.reason, id).to.not.equal('');
      expect(e.source, id).to.not.be.empty;
    }
  });

  it('documented outcomes on a current cluster (1.33, 2022, containerd 1.7, metrics-server, Hyper-V RuntimeClass)', () => {
    const c = cluster({
      hypervRuntimeClass: 'runhcs-wcow-hypervisor',
      runtimeClasses: [{ name: 'runhcs-wcow-hypervisor', handler: 'runhcs-wcow-hypervisor' }],
    });
    for (const [id, expected] of Object.entries(DOCUMENTED)) expect(feature(id).expect(c).expected, id).to.equal(expected);
  });

  it('res.metrics-api: n/a without metrics-server, with the need saying why', () => {
    const c = cluster({ metricsServer: false });
    expect(feature('res.metrics-api').expect(c).expected).to.equal('n/a');
    expect(unmetNeed('metrics-server', c, {})).to.contain('metrics-server');
  });

  it('iso.hyperv-runtimeclass: n/a without the RuntimeClass, limited on containerd < 1.7', () => {
    expect(feature('iso.hyperv-runtimeclass').expect(cluster()).expected).to.equal('n/a');
    expect(feature('iso.hyperv-runtimeclass').expect(cluster()).reason).to.contain('runhcs-wcow-hypervisor');
    const old = cluster({
      hypervRuntimeClass: 'hv',
      runtimeClasses: [{ name: 'hv', handler: 'runhcs-wcow-hypervisor' }],
      nodes: [linuxNode('l'), winNode('win-1', '10.0.20348', { runtimeVersion: '1.6.21' })],
    });
    expect(feature('iso.hyperv-runtimeclass').expect(old).expected).to.equal('limited');
    expect(feature('iso.hyperv-runtimeclass').expect(old).reason).to.contain('1.7');
  });

  it('iso.hostprocess: supported from beta (1.23, on by default) with containerd >= 1.6, limited otherwise', () => {
    expect(feature('iso.hostprocess').expect(cluster()).expected).to.equal('supported');
    expect(feature('iso.hostprocess').expect(cluster({ version: v(25) })).expected).to.equal('supported');
    expect(feature('iso.hostprocess').expect(cluster({ version: v(22) })).expected).to.equal('limited');
    expect(feature('iso.hostprocess').expect(cluster({ version: v(22) })).reason)
      .to.contain('alpha in Kubernetes v1.22.0')
      .and.contain('off by default');
    const docker = cluster({ nodes: [winNode('w', '10.0.17763', { runtimeName: 'docker', runtimeVersion: '20.10.9' })] });
    expect(feature('iso.hostprocess').expect(docker).expected).to.equal('limited');
  });

  it('iso.hyperv-annotation: limited, removed in 1.21', () => {
    expect(feature('iso.hyperv-annotation').expect(cluster()).reason).to.contain('1.21');
  });

  it('sec.linux-fields-rejected: limited (enforced) from 1.24, n/a before', () => {
    expect(feature('sec.linux-fields-rejected').expect(cluster({ version: v(30) })).expected).to.equal('limited');
    expect(feature('sec.linux-fields-rejected').expect(cluster({ version: v(23) })).expected).to.equal('n/a');
  });

  it('res.node-reserved: the reason warns about nodes under 2Gi', () => {
    const low = cluster({ nodes: [winNode('win-1', '10.0.20348', { capacity: { memory: '16Gi', cpu: '4' }, allocatable: { memory: '15Gi', cpu: '4' } })] });
    expect(feature('res.node-reserved').expect(low).reason).to.contain('under 2Gi on win-1');
    expect(feature('res.node-reserved').expect(cluster()).reason).to.not.contain('under 2Gi on');
  });

  it('node features need node access; n/a says why', () => {
    const none = cluster({ nodeAccess: { hostProcess: false, hostProcessReason: 'Kubernetes v1.25.0 < 1.26', ssh: false, sshReason: 'SSH not configured' } });
    expect(feature('node.services').needs).to.include('node-access');
    expect(feature('node.hns-network').needs).to.include('node-access');
    expect(feature('iso.hyperv-runtimeclass').needs).to.include('node-access');
    expect(unmetNeed('node-access', none, {}))
      .to.contain('HostProcess Kubernetes v1.25.0 < 1.26')
      .and.contain('SSH not configured');
  });

  it('node.os-supported: the build table per control-plane version', () => {
    expect(buildSupport('10.0.17763', v(33)).ok).to.equal(true);
    expect(buildSupport('10.0.20348', v(33)).ok).to.equal(true);
    expect(buildSupport('10.0.20348', v(22)).ok).to.equal(false);
    expect(buildSupport('10.0.26100', v(33)).ok).to.equal(true);
    expect(buildSupport('10.0.26100', v(30)).ok).to.equal(false);
    expect(buildSupport('10.0.19041', v(22)).ok).to.equal(true);
    expect(buildSupport('10.0.19041', v(23)).ok).to.equal(false);
    expect(buildSupport('10.0.14393', v(33)).why).to.contain('not a supported');
    expect(feature('node.os-supported').expect(cluster({ version: v(30), nodes: [winNode('w25', '10.0.26100')] })).reason).to.contain('not v1.30.0');
  });

  it('node.version-skew: n-3 from 1.28, n-2 before; never newer', () => {
    expect(allowedSkew(v(28))).to.equal(3);
    expect(allowedSkew(v(27))).to.equal(2);
    expect(skewOf('v1.30.4', v(33)).ok).to.equal(true);
    expect(skewOf('v1.29.4', v(33)).ok).to.equal(false);
    expect(skewOf('v1.25.1', v(27)).ok).to.equal(true);
    expect(skewOf('v1.24.1', v(27)).ok).to.equal(false);
    expect(skewOf('v1.34.0', v(33)).why).to.contain('newer');
  });
});

describe('features-risn: parsers of real Windows output', () => {
  it('sc.exe queryex: RUNNING, START_PENDING, not installed (1060)', () => {
    const running =
      'SERVICE_NAME: kubelet\r\n        TYPE               : 10  WIN32_OWN_PROCESS\r\n        STATE              : 4  RUNNING\r\n                                (STOPPABLE, PAUSABLE, ACCEPTS_SHUTDOWN)\r\n        PID                : 4624\r\n';
    expect(serviceState(running, 0)).to.equal('RUNNING');
    expect(serviceState(running.replace('4  RUNNING', '2  START_PENDING'), 0)).to.equal('START_PENDING');
    expect(
      serviceState('[SC] EnumQueryServicesStatus:OpenService FAILED 1060:\r\n\r\nThe specified service does not exist as an installed service.\r\n', 1060),
    ).to.equal('NOT_INSTALLED');
    expect(serviceState('', 5)).to.equal(undefined);
  });

  it('Get-HnsNetwork list output and ipconfig adapters', () => {
    const out = '\r\nName : nat\r\nType : nat\r\nID   : 1A2B\r\n\r\nName : cbr0\r\nType : L2Bridge\r\nID   : 3C4D\r\n\r\n';
    expect(parseHnsNetworks(out)).to.deep.equal([
      { name: 'nat', type: 'nat' },
      { name: 'cbr0', type: 'L2Bridge' },
    ]);
    const ip =
      '\r\nWindows IP Configuration\r\n\r\n\r\nEthernet adapter vEthernet (Ethernet):\r\n\r\n   IPv4 Address. . . : 10.0.0.4\r\n\r\nEthernet adapter vEthernet (nat):\r\n';
    expect(vEthernetAdapters(ip)).to.deep.equal(['vEthernet (Ethernet)', 'vEthernet (nat)']);
  });

  it('quantities', () => {
    expect(parseQuantity('128Mi')).to.equal(128 * 2 ** 20);
    expect(parseQuantity('500m')).to.equal(0.5);
    expect(parseQuantity('2')).to.equal(2);
    expect(parseQuantity('16363532Ki')).to.equal(16363532 * 1024);
    expect(parseQuantity('1G')).to.equal(1e9);
    expect(parseQuantity('x')).to.equal(undefined);
  });

  it('sec.linux-fields-rejected: a 422 naming the field is Forbidden; a dropped field is not counted', () => {
    const body = JSON.stringify({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: 'Pod "x" is invalid: spec.hostPID: Forbidden: cannot be set for a windows pod',
      details: { causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: cannot be set for a windows pod', field: 'spec.hostPID' }] },
    });
    expect(fieldVerdict('spec.hostPID', undefined, new ApiException(422, 'Unprocessable', body, {})).verdict).to.equal('forbidden');
    expect(fieldVerdict('spec.hostIPC', undefined, new ApiException(422, 'Unprocessable', body, {})).verdict).to.equal('rejected-otherwise');
    expect(fieldVerdict('spec.hostPID', { spec: { hostPID: true } }, undefined).verdict).to.equal('accepted');
    expect(fieldVerdict('spec.securityContext.seLinuxChangePolicy', { spec: { securityContext: {} } }, undefined).verdict).to.equal('dropped');
    expect(valueAt({ spec: { containers: [{ securityContext: { privileged: true } }] } }, 'spec.containers[0].securityContext.privileged')).to.equal(true);
    expect(LINUX_ONLY_FIELDS.map(f => f.path)).to.include.members([
      'spec.securityContext.fsGroup',
      'spec.shareProcessNamespace',
      'spec.containers[0].securityContext.procMount',
    ]);
    expect(LINUX_ONLY_FIELDS).to.have.length(25);
  });
});

describe('features-risn: node access choice', () => {
  const run = (nodeAccess: 'auto' | 'ssh' | 'hostprocess', ssh = true, c = cluster()) => {
    const config = resolveConfig({ nodeAccess, ...(ssh ? { sshUser: 'Administrator', sshKey: '/k', sshKnownHosts: '/kh' } : {}) }, {}, {});
    return { mode: config.nodeAccess, ssh: config.ssh, version: c.version };
  };
  it('auto: HostProcess where possible, SSH as the fallback', () => {
    const p = planNodeAccess(run('auto'), winNode('win-1'));
    expect(p.hostProcess.ok).to.equal(true);
    expect(p.ssh.ok).to.equal(true);
    const old = planNodeAccess(run('auto', true, cluster({ version: v(22) })), winNode('win-1'));
    expect(old.hostProcess.ok).to.equal(false);
    expect(old.hostProcess.reason).to.contain('alpha 1.22, beta 1.23, GA 1.26');
  });
  it('ssh / hostprocess modes exclude the other transport; SSH needs user, key and known_hosts', () => {
    expect(planNodeAccess(run('ssh'), winNode('win-1')).hostProcess.reason).to.equal('node access is set to ssh');
    expect(planNodeAccess(run('hostprocess'), winNode('win-1')).ssh.reason).to.equal('node access is set to hostprocess');
    expect(planNodeAccess(run('auto', false), winNode('win-1')).ssh.reason).to.contain('--ssh-known-hosts');
  });
  it("the mode narrows discovery's node access, so the node-access need says why", () => {
    const both = { hostProcess: true, hostProcessReason: 'Kubernetes v1.33.2 >= 1.26', ssh: true, sshReason: 'Administrator@10.0.0.4:22' };
    expect(applyNodeAccessMode(both, 'auto')).to.deep.equal(both);
    const ssh = applyNodeAccessMode({ ...both, ssh: false, sshReason: 'SSH not configured' }, 'ssh');
    expect(unmetNeed('node-access', cluster({ nodeAccess: ssh }), {}))
      .to.contain('node access is set to ssh')
      .and.contain('SSH not configured');
    expect(applyNodeAccessMode(both, 'hostprocess').ssh).to.equal(false);
  });
  it('config: nodeAccess from flags beats the file; the file is validated', () => {
    expect(resolveConfig({}, {}, {}).nodeAccess).to.equal('auto');
    expect(resolveConfig({}, { nodeAccess: 'ssh' }, {}).nodeAccess).to.equal('ssh');
    expect(resolveConfig({ nodeAccess: 'hostprocess' }, { nodeAccess: 'ssh' }, {}).nodeAccess).to.equal('hostprocess');
    expect(validateConfig({ nodeAccess: 'ssh' }, 'w.yaml').nodeAccess).to.equal('ssh');
    expect(() => validateConfig({ nodeAccess: 'telnet' }, 'w.yaml')).to.throw('w.yaml: nodeAccess must be one of auto, hostprocess, ssh');
  });
  it("the HostProcess pod: pinned, tolerating the node's taints, SYSTEM, host network, run label", () => {
    const name = hostProcessPodName('Win-2022_1');
    expect(name).to.match(/^wincheck-node-win-2022-1-[0-9a-f]{8}$/);
    const r = renderFixture(
      { id: name, template: 'hostprocess', os: 'windows', pin: 'node' },
      {
        runId: 'r1',
        namespace: 'wincheck-r1',
        windowsNode: 'Win-2022_1',
        multipleBuilds: false,
        windowsTaints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
        secrets: {},
      },
    );
    const pod = r.objects[0] as unknown as {
      metadata: { labels: Record<string, string>; namespace: string };
      spec: Record<string, unknown> & { securityContext: { windowsOptions: Record<string, unknown> }; tolerations: unknown[] };
    };
    expect(pod.spec.nodeName).to.equal('Win-2022_1');
    expect(pod.spec.hostNetwork).to.equal(true);
    expect(pod.spec.securityContext.windowsOptions).to.deep.equal({ hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' });
    expect(pod.spec.tolerations).to.deep.equal([{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
    expect(pod.metadata.labels['wincheck.io/run-id']).to.equal('r1');
    expect(pod.metadata.namespace).to.equal('wincheck-r1');
  });
});
