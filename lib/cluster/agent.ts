// One keep-alive TLS agent per client identity. @kubernetes/client-node makes a new https.Agent
// for every call (and every exec/watch socket), so every request paid a full TLS handshake, on
// the harness's side and on the API server's: on a 100-node cluster the node suite makes about
// 1300 requests and 600 exec sessions. Through one agent, requests reuse kept-alive connections
// and new connections (exec upgrades, watches) resume the TLS session instead of a full
// handshake. Proxy agents (proxy-url in the kubeconfig) are left as the library makes them.

import https from 'node:https';
import tls from 'node:tls';
import { createHash } from 'node:crypto';
import { KubeConfig, type RequestContext } from '@kubernetes/client-node';

/** What makes two agents interchangeable: the TLS identity and trust, nothing else. */
function identityKey(o: https.AgentOptions): string {
  const h = createHash('sha256');
  for (const v of [o.ca, o.cert, o.key, o.pfx, o.passphrase, o.rejectUnauthorized, o.servername])
    h.update(v === undefined ? '\0' : Buffer.isBuffer(v) ? v : JSON.stringify(v)).update('\u0001');
  return h.digest('hex');
}

export class SharedAgentKubeConfig extends KubeConfig {
  private readonly _agents = new Map<string, https.Agent>();

  constructor(from: KubeConfig) {
    super();
    this.loadFromOptions({ clusters: from.clusters, users: from.users, contexts: from.contexts, currentContext: from.currentContext });
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const a = context.getAgent();
    if (a) context.setAgent(this.shared(a));
  }

  override async applyToHTTPSOptions(opts: Parameters<KubeConfig['applyToHTTPSOptions']>[0]): Promise<void> {
    await super.applyToHTTPSOptions(opts);
    const o = opts as { agent?: unknown };
    if (o.agent) o.agent = this.shared(o.agent);
  }

  /** The kept-alive agent for this one's identity (a plain https.Agent only). */
  shared<A>(agent: A): A | https.Agent {
    const made = agent as unknown;
    if (!(made instanceof https.Agent) || made.constructor !== https.Agent) return agent;
    const key = identityKey(made.options);
    let a = this._agents.get(key);
    // One SecureContext too: without it every new connection parses the CA, certificate and key again.
    if (!a) this._agents.set(key, (a = new https.Agent({ ...made.options, keepAlive: true, secureContext: tls.createSecureContext(made.options) })));
    return a;
  }

  /** Closes kept-alive sockets (a finished run must not hold the process open). */
  destroy(): void {
    for (const a of this._agents.values()) a.destroy();
    this._agents.clear();
  }
}
