// Errors that decide the exit code. Anything else that escapes is a tool error (1).

/** Bad usage or configuration: exit 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** The cluster could not be reached or failed preflight: exit 3. */
export class ClusterUnreachableError extends Error {
  readonly exitCode = 3;
}

/**
 * The RBAC preflight found permissions missing (a 403 is an answer, not an unreachable cluster):
 * exit 3 like preflight failures, one line per permission.
 */
export class MissingPermissionsError extends Error {
  readonly exitCode = 3;
}

/** The errors that decide the exit code themselves (2 or 3); anything else is a tool error (1). */
export function hasExitCode(error: unknown): error is UsageError | ClusterUnreachableError | MissingPermissionsError {
  return error instanceof UsageError || error instanceof ClusterUnreachableError || error instanceof MissingPermissionsError;
}

export function exitCodeOf(error: unknown): number {
  return hasExitCode(error) ? error.exitCode : 1;
}
