// `sc.exe queryex <svc>` (and `sc query`): the service's state. The STATE line carries a number and
// a word ("STATE : 4  RUNNING"); the number is the SERVICE_STATUS dwCurrentState value and does not
// depend on the display language. "Not installed" is only ERROR_SERVICE_DOES_NOT_EXIST (1060) as
// the error code: sc's exit code, or its "[SC] <call> FAILED|ERROR 1060:" line, never any 1060 in the
// text (a PID can be 1060). https://learn.microsoft.com/en-us/windows/win32/api/winsvc/ns-winsvc-service_status

/** dwCurrentState values. */
const STATES: Record<number, string> = {
  1: 'STOPPED',
  2: 'START_PENDING',
  3: 'STOP_PENDING',
  4: 'RUNNING',
  5: 'CONTINUE_PENDING',
  6: 'PAUSE_PENDING',
  7: 'PAUSED',
};

export const SERVICE_DOES_NOT_EXIST = 1060;

/** The state (RUNNING, STOPPED...), 'NOT_INSTALLED', or undefined when the output says neither. */
export function serviceState(output: string, exitCode: number): string | undefined {
  const line = /^\s*STATE\s*:\s*(\d+)(?:\s+([A-Z_]+))?/m.exec(output);
  if (line) return STATES[Number(line[1])] ?? line[2];
  if (exitCode === SERVICE_DOES_NOT_EXIST || /^\s*\[SC\][^\r\n]*\b(?:FAILED|ERROR)\s+1060\s*:/im.test(output)) return 'NOT_INSTALLED';
  // PowerShell's Get-Service (ObjectNotFound): "Cannot find any service with service name 'x'".
  if (/NoServiceFoundForGivenName|Cannot find any service with service name/i.test(output)) return 'NOT_INSTALLED';
  return undefined;
}

/** The service's process id from `sc queryex` ("PID : 4624"), when running or pending. */
export function servicePid(output: string): number | undefined {
  const m = /^\s*PID\s*:\s*(\d+)/m.exec(output);
  return m ? Number(m[1]) : undefined;
}
