// Default SSH check for discovery: SSH is configured and the node's port 22 accepts a TCP
// connection. The host key is verified by the SSH transport itself (never an unknown key).

import { connect } from 'node:net';
import type { SshConfig } from '../config/types.ts';
import type { NodeInfo } from './types.ts';

export function sshReachable(ssh: SshConfig, timeoutMs = 3000) {
  if (!ssh.user || !ssh.key || !ssh.knownHosts) return undefined;
  return (node: NodeInfo) =>
    new Promise<{ ok: boolean; reason: string }>(resolve => {
      if (!node.internalIP) return resolve({ ok: false, reason: `node ${node.name} has no InternalIP` });
      const sock = connect({ host: node.internalIP, port: 22, timeout: timeoutMs });
      sock.once('connect', () => {
        sock.destroy();
        resolve({ ok: true, reason: `${ssh.user}@${node.internalIP}:22 accepts connections (host key pinned from ${ssh.knownHosts})` });
      });
      sock.once('timeout', () => {
        sock.destroy();
        resolve({ ok: false, reason: `${node.internalIP}:22 did not answer within ${timeoutMs}ms` });
      });
      sock.once('error', e => resolve({ ok: false, reason: `${node.internalIP}:22: ${e.message}` }));
    });
}
