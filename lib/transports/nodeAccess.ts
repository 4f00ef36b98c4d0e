// The run's nodeTransport(node): a HostProcess pod first (where discovery says the cluster
// supports it: Kubernetes >= 1.23, containerd >= 1.6 on the node), SSH when HostProcess is
// unavailable or fails, or as the user asks (--node-access / nodeAccess: hostprocess|ssh|auto).
// One transport per node, made on first use; SSH connections are closed at the end of the run.

import { readFileSync } from 'node:fs';
import { hostProcessPossible } from '../discovery/discover.ts';
import { notVisitedBecause } from '../discovery/nodes.ts';
import type { Limiter } from '../../util/limiter.ts';
import type { KubeClients } from '../cluster/types.ts';
import type { NodeAccess as NodeAccess0, NodeInfo } from '../discovery/types.ts';
import type { ServerVersion } from '../facts/kubernetes.ts';
import type { NodeAccessMode, SshConfig } from '../config/types.ts';
import type { RenderContext } from '../fixtures/types.ts';
import type { Transport } from '../probes/types.ts';
import { PodReadyHub } from '../cluster/sharedPodWaits.ts';
import { nodeAccessSelector, startHostProcessTransport } from './hostProcess.ts';
import { parseKnownHosts } from './knownHosts.ts';
import { SshTransport } from './ssh.ts';

/** What choosing a node's transport reads: the mode asked for, the SSH settings, the server's version. */
export interface NodeAccessSettings {
  mode?: NodeAccessMode;
  ssh: SshConfig;
  version: ServerVersion;
}

/** What reaching a node takes: where its HostProcess pod goes, how long it may take to start, what bounds its first exec. */
export interface NodeAccessOptions extends NodeAccessSettings {
  kube: KubeClients;
  runId: string;
  namespace: string;
  render: RenderContext;
  /** The HostProcess pod's start deadline. */
  podStartMs: number;
  signal: AbortSignal;
  /** The run's exec slots: 100 nodes' pods must not all open their first exec at once. */
  execSlots?: Limiter;
  /** --include-cordoned: cordoned nodes get a node-access pod too (NotReady ones never). */
  includeCordoned?: boolean;
  log(line: string): void;
}

/** A transport to the node's host (HostProcess pod or SSH), or undefined when none is possible. */
export type NodeTransportFactory = (node: NodeInfo, o: NodeAccessOptions) => Promise<Transport | undefined>;

/**
 * Discovery's node access as the chosen mode leaves it: with --node-access ssh HostProcess is
 * off, with hostprocess SSH is off, so node features are n/a (with this reason) when the one
 * allowed transport is not available.
 */
export function applyNodeAccessMode(access: NodeAccess0, mode: NodeAccessMode = 'auto'): NodeAccess0 {
  if (mode === 'ssh' && access.hostProcess)
    return { ...access, hostProcess: false, hostProcessReason: `not used: node access is set to ssh (${access.hostProcessReason})` };
  if (mode === 'hostprocess' && access.ssh) return { ...access, ssh: false, sshReason: `not used: node access is set to hostprocess (${access.sshReason})` };
  if (mode === 'ssh' && !access.hostProcess) return { ...access, hostProcessReason: `node access is set to ssh; ${access.hostProcessReason}` };
  return access;
}

export interface NodeAccessPlan {
  hostProcess: { ok: boolean; reason: string };
  ssh: { ok: boolean; reason: string };
}

/** Which transports may be tried for this node, and why not. Pure. */
export function planNodeAccess(o: NodeAccessSettings, node: NodeInfo): NodeAccessPlan {
  const mode = o.mode ?? 'auto';
  let hostProcess: NodeAccessPlan['hostProcess'];
  if (node.os !== 'windows') hostProcess = { ok: false, reason: `node ${node.name} is not a Windows node` };
  else if (mode === 'ssh') hostProcess = { ok: false, reason: 'node access is set to ssh' };
  else hostProcess = hostProcessPossible(o.version, [node]);
  const s = o.ssh;
  let ssh: NodeAccessPlan['ssh'];
  if (mode === 'hostprocess') ssh = { ok: false, reason: 'node access is set to hostprocess' };
  else if (!s.user || !s.key || !s.knownHosts) ssh = { ok: false, reason: 'SSH not configured (--ssh-user, --ssh-key, --ssh-known-hosts)' };
  else if (!node.internalIP) ssh = { ok: false, reason: `node ${node.name} has no InternalIP` };
  else ssh = { ok: true, reason: `${s.user}@${node.internalIP}:22, host key pinned from ${s.knownHosts}` };
  return { hostProcess, ssh };
}

export class NodeAccess {
  private readonly _byNode = new Map<string, Promise<Transport | undefined>>();
  private readonly _ssh: SshTransport[] = [];
  /** One list+watch for every node's HostProcess pod, not one per node. */
  private _hub?: PodReadyHub;

  /** The NodeTransportFactory the run uses. */
  readonly transportFor: NodeTransportFactory = (node, o) => {
    let p = this._byNode.get(node.name);
    if (!p) {
      p = this._make(node, o);
      this._byNode.set(node.name, p);
    }
    return p;
  };

  private async _make(node: NodeInfo, o: NodeAccessOptions): Promise<Transport | undefined> {
    // A pod bound by node name skips the scheduler, and with it the cordon and the NotReady taints.
    const barred = notVisitedBecause(node, o);
    if (barred) {
      o.log(`No node access to ${node.name}: not visited, ${barred}.`);
      return undefined;
    }
    const plan = planNodeAccess(o, node);
    const failures: string[] = [];
    if (plan.hostProcess.ok) {
      try {
        const t = await startHostProcessTransport(node, {
          kube: o.kube,
          namespace: o.namespace,
          render: o.render,
          timeoutMs: o.podStartMs,
          signal: o.signal,
          execSlots: o.execSlots,
          readyHub: (this._hub ??= new PodReadyHub(o.kube, o.namespace, nodeAccessSelector(o.runId), o.signal)),
        });
        o.log(`Node access to ${node.name}: ${t.description}.`);
        return t;
      } catch (e) {
        failures.push(`HostProcess: ${(e as Error).message}`);
        o.log(`Node access to ${node.name}: HostProcess failed (${(e as Error).message})${plan.ssh.ok ? '; trying SSH' : ''}.`);
      }
    }
    if (plan.ssh.ok) {
      const s = o.ssh;
      let key: Buffer;
      let known: string;
      try {
        key = readFileSync(s.key!);
        known = readFileSync(s.knownHosts!, 'utf8');
      } catch (e) {
        throw new Error(`cannot read the SSH key or known_hosts for node ${node.name}: ${(e as Error).message}`, { cause: e });
      }
      const t = new SshTransport({
        node: node.name,
        host: node.internalIP!,
        user: s.user!,
        privateKey: key,
        knownHosts: parseKnownHosts(known),
        knownHostsSource: s.knownHosts!,
      });
      this._ssh.push(t);
      try {
        await t.connect();
        o.log(`Node access to ${node.name}: ${t.description}.`);
        return t;
      } catch (e) {
        failures.push(`SSH: ${(e as Error).message}`);
      }
    }
    if (failures.length) throw new Error(`no node access to ${node.name}: ${failures.join('; ')}`);
    o.log(`No node access to ${node.name}: HostProcess ${plan.hostProcess.reason}; SSH ${plan.ssh.reason}.`);
    return undefined;
  }

  /** Closes SSH connections (HostProcess pods go with the run namespace). */
  async close(): Promise<void> {
    await Promise.all(this._ssh.map(t => t.close()));
    this._ssh.length = 0;
  }
}
