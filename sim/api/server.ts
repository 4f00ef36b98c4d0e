// The simulated cluster's API server: HTTPS on loopback, bearer-token or client-cert
// authentication, discovery, the REST verbs on every RESOURCES row, watch, tables,
// subresources and the websocket upgrades for exec/attach/portforward.

import { createServer, type Server } from 'node:https';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { randomBytes, randomUUID, timingSafeEqual, X509Certificate } from 'node:crypto';
import type { Profile } from '../profiles/types.ts';
import type { Store } from './store.ts';
import type { SubresourceHandlers } from './runtimeContract.ts';
import { RESOURCES } from './resources.ts';
import { generateClusterCerts, issueClientCertificate, type ClientCertificate, type ClusterCerts } from './certs.ts';
import { buildKubeconfig } from './kubeconfig.ts';
import { route as routeOf, type ResourceRoute, type Route } from './router.ts';
import { storageBucket } from './convert.ts';
import { createFaults } from './faults.ts';
import { ApiError, methodNotAllowed, notFoundPath, sendJSON, sendStatus, statusOf, toStatus } from './status.ts';
import {
  aggregatedAccept,
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  versionInfo,
} from './discovery.ts';
import { isWatch, type Ctx, type ServerState } from './context.ts';
import { serveWatch } from './watch.ts';
import * as crud from './handlers/crud.ts';
import * as sub from './handlers/subresources.ts';
import * as auth from './handlers/auth.ts';
import { serveOpenAPI } from './openapi/index.ts';
import { ADMIN, ANONYMOUS, certificateUser, type UserInfo } from './auth/identity.ts';
import { requestAttributes } from './auth/attributes.ts';
import { impersonatedUser } from './auth/impersonation.ts';
import { authorize, forbidden } from './auth/rbac.ts';
import { ensureBootstrapPolicy } from './auth/bootstrapPolicy.ts';
import { DEFAULT_EXPIRATION_SECONDS, ServiceAccountTokens, tokenClock } from './auth/tokens.ts';
import { runInRequest } from './requestContext.ts';
import { openRequestLog } from './requestLog.ts';
import { handleStreamingUpgrade } from './streaming/index.ts';
import { apiTimings, startCompactor } from './timing.ts';

export interface ApiServer {
  url: string;
  caPem: string;
  token: string;
  clientCertPem: string;
  clientKeyPem: string;
  kubeconfig(opts?: { auth?: 'token' | 'cert'; context?: string }): string;
  /** A token for a ServiceAccount, as its projected token volume would hold (one hour unless given). */
  serviceAccountToken(namespace: string, name: string, expirationSeconds?: number): string;
  /** A client certificate this server accepts: CN the user, O each group. */
  clientCertificate(user: string, groups?: string[]): ClientCertificate;
  setHandlers(h: SubresourceHandlers): void;
  close(): Promise<void>;
}

export interface ApiServerOptions {
  store: Store;
  profile: Profile;
  handlers?: SubresourceHandlers;
  host?: string;
  port?: number;
  /** Interval of BOOKMARK events on watches that allow them (default 60 s times the profile's apiTimeScale: the watch cache sends one about once a minute). */
  bookmarkIntervalMs?: number;
  /** Reuse TLS material (e.g. across restarts); generated when unset. */
  certs?: ClusterCerts;
  token?: string;
}

const ANONYMOUS_PATHS = /^\/(healthz|livez|readyz|version)(\/|$)/;

export async function startApiServer(opts: ApiServerOptions): Promise<ApiServer> {
  const host = opts.host ?? '127.0.0.1';
  if (host !== '127.0.0.1' && host !== 'localhost' && !host.startsWith('127.')) throw new Error(`the simulated API server binds loopback only, not ${host}`);
  const certs = opts.certs ?? generateClusterCerts();
  const token = opts.token ?? randomBytes(24).toString('hex');
  const tokenBuf = Buffer.from(token);
  const caX509 = new X509Certificate(certs.caPem);
  for (const r of RESOURCES) if (r.namespaced) opts.store.registerNamespaced(storageBucket(r));

  const timings = apiTimings(opts.profile);
  const minor = Number(/^v?\d+\.(\d+)/.exec(opts.profile.kubernetesVersion)?.[1] ?? '33');
  const state: ServerState = {
    store: opts.store,
    profile: opts.profile,
    handlers: opts.handlers,
    faults: createFaults(opts.profile),
    k8sMinor: minor,
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? timings.bookmarkIntervalMs,
    minRequestTimeoutMs: timings.minRequestTimeoutMs,
    closers: new Set(),
    closing: false,
    tokens: new ServiceAccountTokens(opts.store, tokenClock(opts.profile.tokenLifetimeScale)),
  };
  ensureBootstrapPolicy(opts.store);
  const stopCompactor = startCompactor(opts.store, timings.compactionIntervalMs);
  const metricsServer = !!opts.profile.addons?.metricsServer;
  /** The bound port (ephemeral unless asked), known once listening. */
  let port = opts.port ?? 0;

  /** The user, 'none' when no credential was offered; any offered credential must be valid (as kube-apiserver: 401). */
  const credential = (req: IncomingMessage): UserInfo | 'invalid' | 'none' => {
    const h = req.headers.authorization;
    if (h !== undefined) {
      if (!h.startsWith('Bearer ')) return 'invalid';
      const raw = h.slice(7).trim();
      const given = Buffer.from(raw);
      if (given.length === tokenBuf.length && timingSafeEqual(given, tokenBuf)) return ADMIN;
      return state.tokens.verify(raw) ?? 'invalid';
    }
    const sock = req.socket as TLSSocket;
    const peer = sock.getPeerX509Certificate?.();
    if (!peer) return 'none';
    // requestCert without rejectUnauthorized: "authorized" means the chain verified against our CA.
    return sock.authorized && peer.checkIssued(caX509) ? certificateUser(peer) : 'invalid';
  };

  /** 401 for a bad or (outside the public paths) missing credential, 403 when RBAC says no; else the user. */
  const admit = (req: IncomingMessage, url: URL, r: Route, method: string): UserInfo => {
    const cred = credential(req);
    const isPublic = ANONYMOUS_PATHS.test(url.pathname);
    if (cred === 'invalid' || (cred === 'none' && !isPublic)) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    // Impersonation before authorization, as the apiserver's filter chain has it. headersDistinct:
    // node joins repeated headers (one Impersonate-Group per group) with ", " in req.headers.
    const user = impersonatedUser(state.store, cred === 'none' ? ANONYMOUS : cred, req.headersDistinct);
    if (isPublic) return user;
    const attrs = requestAttributes(user, r, method, url.pathname, url.searchParams);
    if (!authorize(state.store, attrs).allowed) throw forbidden(attrs);
    // From 1.35 the websocket upgrade of exec/attach/portforward (a GET) also needs create.
    if (attrs.verb === 'get' && state.k8sMinor >= 35 && ['exec', 'attach', 'portforward'].includes(attrs.subresource ?? '')) {
      const create = { ...attrs, verb: 'create' };
      if (!authorize(state.store, create).allowed) throw forbidden(create);
    }
    return user;
  };

  // apiserver_request_total, as kube-apiserver's /metrics counts it: every authenticated request
  // once it completes (a watch when it closes; an exec session when it is upgraded), by verb
  // (here the HTTP method) and code.
  // Scrapes of /metrics itself are left out, so a before/after difference is the client's own.
  const requestTotals = new Map<string, number>();
  const requestLog = openRequestLog();
  const countRequest = (method: string, code: number, url?: URL, bytes = 0) => {
    const key = `verb="${method}",code="${code}"`;
    requestTotals.set(key, (requestTotals.get(key) ?? 0) + 1);
    if (requestLog && url) requestLog.write({ method, path: url.pathname, query: url.search.slice(1), code, bytes });
  };
  const metricsText = () =>
    [
      '# HELP apiserver_request_total Counter of apiserver requests broken out for each verb and HTTP response code.',
      '# TYPE apiserver_request_total counter',
      ...[...requestTotals].sort().map(([k, n]) => `apiserver_request_total{${k}} ${n}`),
    ].join('\n') + '\n';

  const server: Server = createServer(
    {
      key: certs.serverKeyPem,
      cert: certs.serverCertPem,
      ca: certs.caPem,
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      void handle(req, res);
    },
  );
  server.keepAliveTimeout = 30_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const r = routeOf(url.pathname, metricsServer);
      const user = admit(req, url, r, req.method ?? 'GET');
      // kube-apiserver's audit filter sets Audit-Id on every response; set here, it also keeps the
      // headers writeHead adds readable (Content-Length, for the request log).
      res.setHeader('Audit-Id', randomUUID());
      if (url.pathname !== '/metrics')
        res.once('close', () => countRequest(req.method ?? 'GET', res.statusCode, url, Number(res.getHeader('content-length') ?? 0)));
      await runInRequest({ user, warnings: [] }, () => dispatch(req, res, url, r));
    } catch (e) {
      const s = toStatus(e);
      if (s.code >= 500 && !(e instanceof ApiError)) console.error('sim api: internal error:', e);
      if (!res.headersSent) sendStatus(res, s);
      else res.end();
    }
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse, url: URL, r: Route): Promise<void> {
    const method = req.method ?? 'GET';
    const accept = req.headers.accept;
    switch (r.kind) {
      case 'root':
        return sendJSON(res, 200, {
          paths: [
            '/api',
            '/api/v1',
            '/apis',
            ...RESOURCES.filter(x => x.group)
              .map(x => `/apis/${x.group}/${x.version}`)
              .filter((v, i, a) => a.indexOf(v) === i),
            '/healthz',
            '/livez',
            '/readyz',
            '/version',
            '/openapi/v2',
            '/openapi/v3',
          ],
        });
      case 'version':
        return sendJSON(res, 200, versionInfo(opts.profile));
      case 'metrics':
        res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
        res.end(metricsText());
        return;
      case 'health':
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
        res.end('ok');
        return;
      case 'openapi': {
        if (serveOpenAPI(req, res, url.pathname, opts.profile.kubernetesVersion)) return;
        throw notFoundPath();
      }
      case 'coreGroups': {
        const agg = aggregatedAccept(accept);
        if (agg) return sendJSON(res, 200, aggregatedDiscovery(true, agg, metricsServer), { 'Content-Type': aggregatedContentType(agg) });
        return sendJSON(res, 200, apiVersions(`${host}:${port}`));
      }
      case 'groups': {
        const agg = aggregatedAccept(accept);
        if (agg) return sendJSON(res, 200, aggregatedDiscovery(false, agg, metricsServer), { 'Content-Type': aggregatedContentType(agg) });
        return sendJSON(res, 200, apiGroupList(metricsServer));
      }
      case 'group': {
        const g = apiGroup(r.group, metricsServer);
        if (!g) throw notFoundPath();
        return sendJSON(res, 200, g);
      }
      case 'resources':
        return sendJSON(res, 200, apiResourceList(r.group, r.version));
      case 'notFound':
        throw notFoundPath();
      case 'resource': {
        if (state.faults.reset()) {
          req.socket.destroy();
          return;
        }
        const slow = state.faults.slowMs();
        if (slow !== undefined) await new Promise(r => setTimeout(r, slow));
        const fault = state.faults.apiError();
        if (fault === 429)
          return sendStatus(
            res,
            statusOf(429, 'TooManyRequests', 'the server has received too many requests and has asked us to try again later', { retryAfterSeconds: 1 }),
            { 'Retry-After': '1' },
          );
        if (fault === 500) return sendStatus(res, statusOf(500, 'InternalError', 'Internal error occurred: injected fault'));
        const ctx: Ctx = { req, res, state, query: url.searchParams, route: r, bucket: storageBucket(r.rt) };
        return resource(ctx, method);
      }
    }
  }

  function resource(ctx: Ctx, method: string): Promise<void> | void {
    const { route: r } = ctx;
    const rt = r.rt;
    if (rt.group === 'metrics.k8s.io') {
      refuseRead(`${rt.resource}.metrics.k8s.io`, rt.resource, 'metrics.k8s.io', r.namespace);
      return sub.metrics(ctx);
    }
    if (rt.resource === 'selfsubjectaccessreviews') return auth.selfSubjectAccessReview(ctx);
    if (rt.resource === 'selfsubjectrulesreviews') return auth.selfSubjectRulesReview(ctx);
    if (rt.resource === 'selfsubjectreviews') return auth.selfSubjectReview(ctx);
    if (rt.namespaced && !r.namespace && r.name) throw notFoundPath();
    if (r.subresource) return subresource(ctx, method, r);
    const verb = r.name
      ? ({ GET: isWatch(ctx) ? 'watch' : 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' } as Record<string, string>)[method]
      : ({ GET: isWatch(ctx) ? 'watch' : 'list', POST: 'create', DELETE: 'deletecollection' } as Record<string, string>)[method];
    if (!verb || !(rt.verbs ?? []).includes(verb)) throw methodNotAllowed(method);
    if (verb === 'create' && rt.namespaced && !r.namespace) throw methodNotAllowed(method);
    switch (verb) {
      case 'watch':
        return serveWatch(ctx);
      case 'get':
        return crud.get(ctx);
      case 'list':
        return crud.list(ctx);
      case 'create':
        return crud.create(ctx);
      case 'update':
        return crud.update(ctx);
      case 'patch':
        return crud.patch(ctx);
      case 'delete':
        return crud.remove(ctx);
      case 'deletecollection':
        return crud.removeCollection(ctx);
    }
  }

  /**
   * breaks: rbac-subresources: least-privilege RBAC that leaves the caller without pods/log,
   * pods/portforward and metrics.k8s.io (403 in the API server's words).
   */
  function refuseRead(what: string, resource: string, group: string, namespace: string | undefined, verb = 'get'): void {
    if (!opts.profile.breaks?.includes('rbac-subresources')) return;
    throw new ApiError(
      403,
      'Forbidden',
      `${what} is forbidden: User "wincheck" cannot ${verb} resource "${resource}" in API group "${group}"${namespace ? ` in the namespace "${namespace}"` : ' at the cluster scope'}`,
    );
  }

  function subresource(ctx: Ctx, method: string, r: ResourceRoute): Promise<void> | void {
    switch (r.subresource) {
      case 'status':
      case 'finalize':
      case 'ephemeralcontainers':
        if (method === 'GET' && r.subresource !== 'finalize') return crud.get(ctx);
        if (method === 'PUT') return crud.update(ctx);
        if (method === 'PATCH' && r.subresource !== 'finalize') return crud.patch(ctx);
        throw methodNotAllowed(method);
      case 'scale':
        return crud.scale(ctx);
      case 'log':
        if (method !== 'GET') throw methodNotAllowed(method);
        refuseRead(`pods "${r.name}"`, 'pods/log', '', r.namespace);
        return sub.podLog(ctx);
      case 'exec':
      case 'attach':
      case 'portforward':
        if (method !== 'GET' && method !== 'POST') throw methodNotAllowed(method);
        return sub.upgradeRequired(ctx);
      case 'token':
        return auth.serviceAccountToken(ctx);
      case 'binding':
        if (method !== 'POST') throw methodNotAllowed(method);
        return sub.binding(ctx);
      case 'eviction':
        if (method !== 'POST') throw methodNotAllowed(method);
        return sub.eviction(ctx);
      case 'proxy':
        if (r.rt.resource === 'nodes') return sub.nodeProxy(ctx);
        throw new ApiError(503, 'ServiceUnavailable', `no endpoints available for service "${r.name}"`);
      default:
        throw notFoundPath();
    }
  }

  // exec / attach / portforward: websocket (or SPDY) upgrades on the same port.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    socket.on('error', () => socket.destroy());
    const at = new URL(req.url ?? '/', 'https://localhost');
    const fail = (code: number, reason: string, message: string) => {
      if (code !== 401) countRequest(req.method ?? 'GET', code, at);
      const body = JSON.stringify(statusOf(code, reason as never, message));
      socket.end(
        `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    try {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const r = routeOf(url.pathname, metricsServer);
      admit(req, url, r, req.method ?? 'GET');
      // Exec/attach connects meet the same faults as other requests (clients must retry them).
      if (state.faults.reset()) {
        socket.destroy();
        return;
      }
      if (state.faults.apiError() === 500) return fail(500, 'InternalError', 'Internal error occurred: injected fault');
      if (
        r.kind !== 'resource' ||
        r.rt.resource !== 'pods' ||
        r.rt.group !== '' ||
        !r.namespace ||
        !r.name ||
        !['exec', 'attach', 'portforward'].includes(r.subresource ?? '')
      )
        return fail(404, 'NotFound', 'the server could not find the requested resource');
      opts.store.get('pods', r.namespace, r.name);
      if (r.subresource === 'portforward') refuseRead(`pods "${r.name}"`, 'pods/portforward', '', r.namespace, 'create');
      const handlers = state.handlers;
      if (!handlers) return fail(503, 'ServiceUnavailable', 'the node runtime is not connected to the API server yet');
      // An exec/attach/port-forward session is one request (101 Switching Protocols).
      countRequest(req.method ?? 'GET', 101, at);
      handleStreamingUpgrade(
        req,
        socket,
        head,
        { namespace: r.namespace, pod: r.name, subresource: r.subresource as 'exec' | 'attach' | 'portforward', query: url.searchParams },
        handlers,
        opts.store,
      );
    } catch (e) {
      const s = toStatus(e);
      fail(s.code, s.reason ?? 'InternalError', s.message ?? 'error');
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : port;
  const url = `https://${host}:${port}`;

  return {
    url,
    caPem: certs.caPem,
    token,
    clientCertPem: certs.clientCertPem,
    clientKeyPem: certs.clientKeyPem,
    serviceAccountToken: (namespace, name, expirationSeconds = DEFAULT_EXPIRATION_SECONDS) => {
      const sa = opts.store.get('serviceaccounts', namespace, name);
      return state.tokens.issue({ namespace, name, uid: sa.metadata.uid! }, expirationSeconds, []).token;
    },
    clientCertificate: (user, groups) => issueClientCertificate(certs, user, groups),
    kubeconfig: (k = {}) =>
      buildKubeconfig({
        server: url,
        caPem: certs.caPem,
        token,
        clientCertPem: certs.clientCertPem,
        clientKeyPem: certs.clientKeyPem,
        auth: k.auth,
        context: k.context,
      }),
    setHandlers(h) {
      state.handlers = h;
    },
    async close() {
      if (state.closing) return;
      state.closing = true;
      stopCompactor();
      for (const c of [...state.closers]) c();
      for (const s of upgraded) s.destroy();
      const closed = new Promise<void>(resolve => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await requestLog?.close();
    },
  };
}
