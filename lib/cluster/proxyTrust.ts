// How the TLS to an https proxy is verified.

import type http from 'node:http';
import type https from 'node:https';

/**
 * An https proxy is verified as client-go does: Go's transport adds TLS to the proxy with the
 * transport's own TLSClientConfig (https://github.com/golang/go/blob/master/src/net/http/transport.go,
 * persistConn.addTLS), so the kubeconfig's CA (and client certificate) apply to the proxy as to the
 * server. hpagent would use Node's default trust only; its proxyRequestOptions carry ours. (The name
 * checked stays the proxy's host: hpagent sets it, where Go would take tls-server-name too.)
 */
export function trustForProxy<A>(agent: A, proxy: string | undefined): A {
  const a = agent as A & http.Agent & { proxyRequestOptions?: https.RequestOptions; options?: https.AgentOptions };
  if (!proxy || !URL.canParse(proxy) || new URL(proxy).protocol !== 'https:' || !a.proxyRequestOptions) return agent;
  const o = a.options ?? {};
  a.proxyRequestOptions = { ...a.proxyRequestOptions, ca: o.ca, cert: o.cert, key: o.key, rejectUnauthorized: o.rejectUnauthorized };
  return agent;
}
