// One keep-alive TLS agent per client identity. @kubernetes/client-node makes a new https.Agent
// for every call (and every exec/watch socket), so every request paid a full TLS handshake, on
// the harness's side and on the API server's: on a 100-node cluster the node suite makes about
// 1300 requests and 600 exec sessions. Through one agent, requests reuse kept-alive connections
// and new connections (exec upgrades, watches) resume the TLS session instead of a full
// handshake. A proxied agent (proxy-url, HTTPS_PROXY) is kept as the library first makes it, one
// per identity and proxy, so its settings (CONNECT or socks5, TLS to the server) stay the library's.

import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { createHash } from 'node:crypto';
import type { KubeConfig, RequestContext } from '@kubernetes/client-node';
import { CredentialedKubeConfig } from './credentials.ts';

/** What makes two agents interchangeable: the TLS identity and trust, nothing else. */
function identityKey(o: https.AgentOptions): string {
  const h = createHash('sha256');
  for (const v of [o.ca, o.cert, o.key, o.pfx, o.passphrase, o.rejectUnauthorized, o.servername])
    h.update(v === undefined ? '\0' : Buffer.isBuffer(v) ? v : JSON.stringify(v)).update('\u0001');
  return h.digest('hex');
}

export class SharedAgentKubeConfig extends CredentialedKubeConfig {
  private readonly _agents = new Map<string, https.Agent>();
  private readonly _proxied = new Map<string, unknown>();

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
    const proxy = this.getCurrentCluster()?.proxyUrl;
    if (proxy && made instanceof http.Agent) {
      const key = `${proxy}\u0001${made.constructor.name}\u0001${identityKey((made as unknown as { options: https.AgentOptions }).options ?? {})}`;
      if (!this._proxied.has(key)) this._proxied.set(key, made);
      return this._proxied.get(key) as A;
    }
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
    for (const a of this._proxied.values()) if (a instanceof http.Agent) a.destroy();
    this._agents.clear();
    this._proxied.clear();
  }
}
