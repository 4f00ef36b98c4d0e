// The runtime list of limitation names, so a profile naming an unknown one is rejected.
// The `satisfies` + exhaustiveness check keep it in step with the Limitations interface.

import type { LimitationKey } from './types.ts';

export const LIMITATION_KEYS = [
  'icmpEgress',
  'localNodePort',
  'sessionAffinityTimeout',
  'sessionAffinityOld',
  'dnsDottedName',
  'dnsHostNetwork',
  'osBuildMismatch',
  'envColonName',
  'secretDefaultMode',
  'secretAtRest',
  'emptyDirMemory',
  'readOnlyRootFilesystem',
  'mountPropagation',
  'subPathHandleLeak',
  'nfs',
  'blockVolume',
  'volumeResize',
  'memoryOOMKill',
  'hypervAnnotation',
  'linuxFieldsIgnored',
  'linuxFieldsRejected',
  'privileged',
  'ipv6Only',
  'dualStackOverlay',
] as const satisfies readonly LimitationKey[];

// Fails to compile when a key is added to Limitations but not listed above.
type Missing = Exclude<LimitationKey, (typeof LIMITATION_KEYS)[number]>;
const exhaustive: [Missing] extends [never] ? true : Missing = true;
void exhaustive;
