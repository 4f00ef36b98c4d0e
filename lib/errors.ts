// Errors that decide the exit code. Anything else that escapes is a tool error (1).

/** Bad usage or configuration: exit 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** The cluster could not be reached or failed preflight: exit 3. */
export class ClusterUnreachableError extends Error {
  readonly exitCode = 3;
}

/** The RBAC preflight found permissions missing: exit 3, one line per permission. */
export class MissingPermissionsError extends ClusterUnreachableError {}

export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || error instanceof ClusterUnreachableError) return error.exitCode;
  return 1;
}
