// Run ids: short, lower-case, DNS-1123 safe (they end up in namespace and object names).

import { randomBytes } from 'node:crypto';

export function newRunId(): string {
  // Base36 of random bytes; a leading letter keeps names valid wherever they are used.
  return (
    'r' +
    BigInt('0x' + randomBytes(6).toString('hex'))
      .toString(36)
      .slice(0, 7)
      .padStart(7, '0')
  );
}

export function namespaceFor(runId: string): string {
  return `wincheck-${runId}`;
}
