#!/usr/bin/env node
// A client-go exec credential plugin for tests: prints an ExecCredential of the apiVersion in
// KUBERNETES_EXEC_INFO with the token in $PLUGIN_TOKEN, expiring in $PLUGIN_EXPIRES_S seconds (fractions allowed);
// appends one line per run to $PLUGIN_LOG (what it was given); fails with $PLUGIN_FAIL on stderr;
// with $PLUGIN_TOKEN_REQUEST (namespace/name) asks the cluster for a ServiceAccount token instead.
import { appendFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { request } from 'node:https';

const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO ?? '{}');
if (process.env.PLUGIN_LOG)
  appendFileSync(
    process.env.PLUGIN_LOG,
    JSON.stringify({ args: process.argv.slice(2), interactive: info.spec?.interactive, server: info.spec?.cluster?.server, apiVersion: info.apiVersion }) +
      '\n',
  );
if (process.env.PLUGIN_FAIL) {
  process.stderr.write(`${process.env.PLUGIN_FAIL}\n`);
  process.exit(1);
}
const expires = Number(process.env.PLUGIN_EXPIRES_S ?? '0');
let token = process.env.PLUGIN_TOKEN;
let expirationTimestamp = expires ? new Date(Date.now() + expires * 1000).toISOString() : undefined;
if (process.env.PLUGIN_TOKEN_REQUEST) {
  // As aws eks get-token and friends: a fresh token from the cluster (here a TokenRequest for
  // namespace/name, asked with $PLUGIN_ADMIN_TOKEN), on the cluster KUBERNETES_EXEC_INFO names.
  const [namespace, name] = process.env.PLUGIN_TOKEN_REQUEST.split('/');
  const cluster = info.spec?.cluster ?? {};
  const url = `${cluster.server}/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`;
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } });
  const ca = Buffer.from(cluster['certificate-authority-data'] ?? '', 'base64');
  const answer = await new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', ca, headers: { Authorization: `Bearer ${process.env.PLUGIN_ADMIN_TOKEN}`, 'Content-Type': 'application/json' } },
      res => {
        let text = '';
        res.setEncoding('utf8').on('data', d => (text += d));
        res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(text)) : reject(new Error(`TokenRequest: HTTP ${res.statusCode} ${text}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  token = answer.status.token;
  // Without PLUGIN_PASS_EXPIRY the expiry is not told: the client learns of it from a 401.
  expirationTimestamp = process.env.PLUGIN_PASS_EXPIRY ? answer.status.expirationTimestamp : undefined;
}
process.stdout.write(
  JSON.stringify({
    apiVersion: info.apiVersion ?? 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: { token, ...(expirationTimestamp ? { expirationTimestamp } : {}) },
  }),
);
