// Why a curl call failed, from its "curl: (N) message" line wherever curl printed it: on a line of
// its own, or (inbox curl.exe 7.55 of Windows) right after the progress meter on the same line, and
// else from the exit code (https://everything.curl.dev/cmdline/exitcode). Windows PowerShell 5.1's
// `curl` alias is Invoke-WebRequest: its "curl : <message>" error is read too.

export type CurlFailure = 'resolve' | 'connect' | 'timeout' | 'http' | 'other';

const KIND: Record<number, CurlFailure> = { 6: 'resolve', 7: 'connect', 28: 'timeout', 22: 'http' };

export function curlFailureOf(exitCode: number, stderr: string): { kind: CurlFailure; message: string } {
  const own = /curl: \((\d+)\)[^\r\n]*/.exec(stderr);
  if (own) return { kind: KIND[Number(own[1])] ?? 'other', message: own[0].trim() };
  const ps = /^curl : ([^\r\n]+)/m.exec(stderr);
  if (ps) {
    const kind: CurlFailure = /remote name could not be resolved|No such host is known/i.test(ps[1])
      ? 'resolve'
      : /timed out|The operation has timed out/i.test(ps[1])
        ? 'timeout'
        : /Unable to connect|actively refused/i.test(ps[1])
          ? 'connect'
          : 'other';
    return { kind, message: ps[0].trim() };
  }
  const last = stderr.trim().split(/\r?\n/).pop()?.trim() ?? '';
  return { kind: KIND[exitCode] ?? 'other', message: last || `exit ${exitCode}` };
}
