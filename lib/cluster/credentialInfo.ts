// What a run says about its credentials (the banner and the reports); no client library here,
// so the reporters load without it.

/** The kinds of credential a kubeconfig user sends (credentials.ts). */
export type CredentialKind = 'token' | 'tokenFile' | 'exec plugin' | 'certificate' | 'basic auth' | 'auth-provider oidc' | 'none';

/** What the run says about the credentials it uses (the banner and the reports). */
export interface CredentialInfo {
  user?: string;
  kind: CredentialKind;
  /** "as system:serviceaccount:x:y (groups ...)". */
  impersonating?: string;
  /** insecure-skip-tls-verify: the server's certificate is not checked. */
  insecureSkipTLSVerify?: boolean;
  proxy?: string;
}

/** "user u (exec plugin), as x, through proxy p, TLS NOT verified (insecure-skip-tls-verify)" for the banner and reports. */
export function describeCredentials(c: CredentialInfo | undefined): string | undefined {
  if (!c) return undefined;
  return [
    `user ${c.user ?? '(none)'} (${c.kind === 'none' ? 'no credential' : c.kind})`,
    c.impersonating,
    c.proxy ? `through proxy ${c.proxy}` : undefined,
    c.insecureSkipTLSVerify ? "the server's certificate NOT verified (insecure-skip-tls-verify)" : undefined,
  ]
    .filter(Boolean)
    .join(', ');
}
