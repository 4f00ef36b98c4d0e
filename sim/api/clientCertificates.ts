// Client certificates handed out beside the sim's kubeconfig, as a cluster admin hands them to a
// user: the cluster CA (ca.crt: the API server's serving CA and the one it trusts for client auth,
// as kubeadm's --client-ca-file), <name>.crt and <name>.key (CN the user, O each group), and
// <name>.kubeconfig naming them by relative path.

import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ClientCertificate } from './certs.ts';

export interface ClientCertificateRequest {
  user: string;
  groups?: string[];
}

export interface ClientCertificateFiles extends ClientCertificateRequest {
  cert: string;
  key: string;
  kubeconfig: string;
}

/** A file name for the user (system:node:x → system-node-x). */
export function fileNameFor(user: string): string {
  return user.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '') || 'user';
}

/** The files to write for one certificate: path → content (private files all; the CA too, to keep it simple). */
export function clientCertificateFiles(
  dir: string,
  o: { server: string; caPem: string; context: string },
  req: ClientCertificateRequest,
  issued: ClientCertificate,
): { files: Record<string, string>; paths: ClientCertificateFiles } {
  const name = fileNameFor(req.user);
  const kubeconfig = stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: o.context, cluster: { server: o.server, 'certificate-authority': 'ca.crt' } }],
    users: [{ name: req.user, user: { 'client-certificate': `${name}.crt`, 'client-key': `${name}.key` } }],
    contexts: [{ name: `${o.context}-${name}`, context: { cluster: o.context, user: req.user } }],
    'current-context': `${o.context}-${name}`,
  });
  const paths = { ...req, cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`), kubeconfig: join(dir, `${name}.kubeconfig`) };
  return {
    files: { [join(dir, 'ca.crt')]: o.caPem, [paths.cert]: issued.certPem, [paths.key]: issued.keyPem, [paths.kubeconfig]: kubeconfig },
    paths,
  };
}
