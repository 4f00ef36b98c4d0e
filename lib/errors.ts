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

/** An error's message with its causes, for a one-line reason. */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message];
  let cause = (error as { cause?: unknown }).cause;
  while (cause instanceof Error) {
    if (!parts[parts.length - 1].includes(cause.message)) parts.push(cause.message);
    cause = (cause as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}

/**
 * An error's words; also for the websocket ErrorEvents the client's exec and port-forward reject
 * with ({ message: 'Unexpected server response: 403', error }), which are not Errors.
 */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e && typeof e === 'object' && 'message' in e && typeof (e as { message: unknown }).message === 'string') return (e as { message: string }).message;
  return String(e);
}
