// An error's words for a one-line reason: its message and its causes' (each once). Also reads the
// websocket ErrorEvents that client-node's exec and port-forward reject with
// ({ message: 'Unexpected server response: 403', error }), which are not Errors.

export function errorText(error: unknown): string {
  const parts = [messageOnly(error)];
  let cause = error instanceof Error ? error.cause : undefined;
  while (cause instanceof Error) {
    if (!parts[parts.length - 1].includes(cause.message)) parts.push(cause.message);
    cause = cause.cause;
  }
  return parts.join(': ');
}

function messageOnly(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e && typeof e === 'object' && 'message' in e && typeof e.message === 'string') return e.message;
  return String(e);
}
