// Node-level checks send a node's commands together, on every node at once: node.services asks
// its three services in one exec session per node (lib/catalog/kit/probeBatch.ts), each still with
// its own output, exit code and evidence, in order.

import { expect } from 'chai';
import { features } from '../../../lib/catalog/node/node.ts';
import type { CheckContext } from '../../../lib/catalog/types.ts';
import { Redactor } from '../../../lib/fixtures/secrets.ts';
import { runProbe } from '../../../lib/probes/runProbe.ts';
import { batchScript, splitBatch } from '../../../lib/catalog/kit/probeBatch.ts';
import type { Transport } from '../../../lib/probes/types.ts';
import type { CommandResult } from '../../../lib/cluster/exec.ts';
import { cluster, winNode } from '../../support/clusterFixture.ts';

const SERVICE = (name: string) => `SERVICE_NAME: ${name}\r\n        TYPE               : 10  WIN32_OWN_PROCESS\r\n        STATE              : 4  RUNNING\r\n`;

const NOT_INSTALLED = '[SC] EnumQueryServicesStatus:OpenService FAILED 1060:\r\n\r\nThe specified service does not exist as an installed service.\r\n\r\n';

function fakeCtx(nodes: string[], missingServices: string[] = []) {
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  const order: string[] = [];
  const transport = (node: string): Transport => ({
    os: 'windows',
    description: `fake ${node}`,
    async run(command): Promise<CommandResult> {
      const argv = Array.isArray(command) ? command : [command];
      order.push(`${node} ${argv.slice(0, 3).join(' ')}`);
      inFlight.set(node, (inFlight.get(node) ?? 0) + 1);
      most.set(node, Math.max(most.get(node) ?? 0, inFlight.get(node)!));
      await new Promise(r => setTimeout(r, 5));
      inFlight.set(node, inFlight.get(node)! - 1);
      // The batch: PowerShell running each sc.exe and printing its marker with $LASTEXITCODE.
      if (argv[0] === 'powershell') {
        let out = '';
        for (const m of String(argv[3]).matchAll(/sc\.exe queryex (\S+); "@@wincheck-end (\d+) \$LASTEXITCODE"/g)) {
          const missing = missingServices.includes(m[1]);
          out += `${missing ? NOT_INSTALLED : SERVICE(m[1])}@@wincheck-end ${m[2]} ${missing ? 1060 : 0}\r\n`;
        }
        return { stdout: out, stderr: '', exitCode: 0 };
      }
      const name = String(argv[argv.length - 1]);
      return missingServices.includes(name) ? { stdout: NOT_INSTALLED, stderr: '', exitCode: 1060 } : { stdout: SERVICE(name), stderr: '', exitCode: 0 };
    },
  });
  const ctx = {
    cluster: cluster({ nodes: nodes.map(n => winNode(n)) }),
    nodeTransport: async (n: { name: string }) => transport(n.name),
    probe: (t: Transport, op: Parameters<CheckContext['probe']>[1]) => runProbe(t, op, new Redactor([]), { timeoutMs: 5_000 }),
    step: () => undefined,
    options: { timeouts: {}, nodes: [] },
    signal: new AbortController().signal,
  } as unknown as CheckContext;
  return { ctx, most, order };
}

describe("node-level checks: a node's commands go out together", () => {
  it('node.services asks kubelet, containerd and kube-proxy in one exec session per node, each with its own evidence in order', async () => {
    const { ctx, most, order } = fakeCtx(['win-1', 'win-2', 'win-3']);
    const obs = await features.find(f => f.id === 'node.services')!.probe(ctx);
    expect(obs.works, obs.summary).to.equal(true);
    for (const n of ['win-1', 'win-2', 'win-3']) {
      expect(
        order.filter(o => o.startsWith(`${n} `)),
        n,
      ).to.have.length(1);
      expect(most.get(n), n).to.equal(1);
    }
    const items = obs.evidence.filter(e => typeof e !== 'string');
    expect(items.slice(0, 3).map(e => e.command)).to.deep.equal(['sc.exe queryex kubelet', 'sc.exe queryex containerd', 'sc.exe queryex kube-proxy']);
    expect(items[0].stdout).to.equal(SERVICE('kubelet'));
    expect(items[0].exitCode).to.equal(0);
  });

  it("a service not installed keeps its own exit code (1060) in the batch, and AKS's kubeproxy is then asked on its own", async () => {
    const { ctx, order } = fakeCtx(['win-1'], ['kube-proxy']);
    const obs = await features.find(f => f.id === 'node.services')!.probe(ctx);
    const items = obs.evidence.filter(e => typeof e !== 'string');
    expect(items.map(e => [e.command, e.exitCode])).to.deep.equal([
      ['sc.exe queryex kubelet', 0],
      ['sc.exe queryex containerd', 0],
      ['sc.exe queryex kube-proxy', 1060],
      ['sc.exe queryex kubeproxy', 0],
    ]);
    expect(order).to.deep.equal(['win-1 powershell -NoProfile -Command', 'win-1 sc.exe queryex kubeproxy']);
    expect(obs.works, obs.summary).to.equal(true);
  });

  it('node.hns-network asks Get-HnsNetwork and ipconfig in one exec session; a missing Get-HnsNetwork (its own error record) still falls back to hnsdiag', async () => {
    const HNS = 'Name : cbr0\r\nType : L2Bridge\r\nID   : 1\r\n\r\n';
    const IPCONFIG = 'Windows IP Configuration\r\n\r\nEthernet adapter vEthernet (Ethernet):\r\n\r\n   IPv4 Address. . . . . . . . . . . : 10.0.0.4\r\n';
    const NOT_FOUND = "Get-HnsNetwork : The term 'Get-HnsNetwork' is not recognized as the name of a cmdlet, function, script file, or operable program.\r\n";
    for (const hnsModule of [true, false]) {
      const sent: string[][] = [];
      const t: Transport = {
        os: 'windows',
        description: 'fake win-1',
        async run(command): Promise<CommandResult> {
          const argv = (Array.isArray(command) ? command : [command]).map(String);
          sent.push(argv);
          if (argv[0] === 'hnsdiag.exe') return { stdout: 'Name  Type  Id\r\ncbr0  L2Bridge  1\r\n', stderr: '', exitCode: 0 };
          const script = argv[3];
          expect(script).to.equal(
            'Get-HnsNetwork | Format-List Name, Type, ID; "@@wincheck-end 0 $([int](-not $?))"; ipconfig.exe; "@@wincheck-end 1 $LASTEXITCODE"',
          );
          return hnsModule
            ? { stdout: `${HNS}@@wincheck-end 0 0\r\n${IPCONFIG}@@wincheck-end 1 0\r\n`, stderr: '', exitCode: 0 }
            : { stdout: `@@wincheck-end 0 1\r\n${IPCONFIG}@@wincheck-end 1 0\r\n`, stderr: NOT_FOUND, exitCode: 0 };
        },
      };
      const ctx = { ...fakeCtx(['win-1']).ctx, nodeTransport: async () => t } as CheckContext;
      const obs = await features.find(f => f.id === 'node.hns-network')!.probe(ctx);
      expect(obs.works, `${hnsModule}: ${obs.summary}`).to.equal(true);
      expect(sent.map(a => a[0])).to.deep.equal(hnsModule ? ['powershell'] : ['powershell', 'hnsdiag.exe']);
      const items = obs.evidence.filter(e => typeof e !== 'string');
      expect(items.map(e => [e.command, e.exitCode])).to.deep.equal([
        ['powershell -NoProfile -Command "Get-HnsNetwork | Format-List Name, Type, ID"', hnsModule ? 0 : 1],
        ...(hnsModule ? [] : [['hnsdiag.exe list networks', 0]]),
        ['ipconfig', 0],
      ]);
    }
  });

  it('a batch is cut at its markers; a missing marker leaves the rest to be run apart, and only plain native argvs and PowerShell scripts batch', () => {
    expect(
      batchScript([
        ['sc.exe', 'queryex', 'kubelet'],
        ['hnsdiag.exe', 'list', 'networks'],
      ]),
    ).to.equal('sc.exe queryex kubelet; "@@wincheck-end 0 $LASTEXITCODE"; hnsdiag.exe list networks; "@@wincheck-end 1 $LASTEXITCODE"');
    // A bare native name runs as its .exe (PowerShell's alias sc = Set-Content must not catch it).
    expect(batchScript([['sc', 'query', 'x']])).to.equal('sc.exe query x; "@@wincheck-end 0 $LASTEXITCODE"');
    expect(
      batchScript([
        ['cmd', '/c', 'echo hi'],
        ['sc.exe', 'queryex', 'x'],
      ]),
    ).to.equal(undefined);
    expect(batchScript([['sc.exe', 'queryex', 'a b']])).to.equal(undefined);
    expect(splitBatch('one\r\n@@wincheck-end 0 0\r\ntwo\r\n@@wincheck-end 1 1060\r\n', 2)).to.deep.equal([
      { stdout: 'one\r\n', exitCode: 0 },
      { stdout: 'two\r\n', exitCode: 1060 },
    ]);
    expect(splitBatch('one\r\n@@wincheck-end 0 0\r\ntwo, then the session died', 3)).to.deep.equal([{ stdout: 'one\r\n', exitCode: 0 }]);
  });
});
