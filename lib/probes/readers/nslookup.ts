// nslookup's answer: Windows nslookup exits 0 even when every request timed out ("DNS request timed
// out.", "*** Request to UnKnown timed-out") or the server failed ("*** UnKnown can't find x: Server
// failed"), so the exit code alone says nothing. A name resolved when the output holds an answer:
// a "Name:" line after the server's own block (Windows nslookup, BIND's, busybox's), and no failure.

const FAILED =
  /can't find|could not resolve|NXDOMAIN|Non-existent domain|server can't find|timed[ -]out|no servers could be reached|Server failed|No response from server/i;

export interface LookupAnswer {
  resolved: boolean;
  /** Why not, when not resolved. */
  why?: string;
}

export function nslookupAnswer(exitCode: number, stdout: string, stderr: string): LookupAnswer {
  const all = `${stdout}\n${stderr}`;
  const failed = FAILED.exec(all)?.[0];
  if (exitCode !== 0) return { resolved: false, why: `exit ${exitCode}${failed ? `, "${failed}"` : ''}` };
  if (failed) return { resolved: false, why: `exit 0 but "${failed}" in the output` };
  // The server block ("Server: …" / "Address: …") comes first; an answer is a Name line after it.
  const server = /^\s*Server:/m.exec(stdout);
  const after = server ? stdout.slice(server.index + server[0].length) : stdout;
  if (server && !/^\s*Name:/m.test(after)) return { resolved: false, why: 'exit 0 but no answer after the server block' };
  return { resolved: true };
}
