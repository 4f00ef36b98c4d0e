#!/usr/bin/env node
// A client-go exec credential plugin for tests: prints an ExecCredential of the apiVersion in
// KUBERNETES_EXEC_INFO with the token in $PLUGIN_TOKEN, expiring in $PLUGIN_EXPIRES_S seconds (fractions allowed);
// appends one line per run to $PLUGIN_LOG (what it was given); fails with $PLUGIN_FAIL on stderr.
import { appendFileSync } from 'node:fs';

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
process.stdout.write(
  JSON.stringify({
    apiVersion: info.apiVersion ?? 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: {
      token: process.env.PLUGIN_TOKEN,
      ...(expires ? { expirationTimestamp: new Date(Date.now() + expires * 1000).toISOString() } : {}),
    },
  }),
);
