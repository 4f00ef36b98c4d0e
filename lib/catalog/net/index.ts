// Networking and Services (net.*): the area's features, in catalog order. Fixture templates in ./fixtures/.
// Suite "networking": pod addresses, pod ↔ pod paths, DNS, egress, the node's own path, IPv6;
// suite "services": the Service paths (services.ts).

import type { Feature } from '../types.ts';
import { features as dns } from './dns.ts';
import { features as egress } from './egress.ts';
import { features as ipv6 } from './ipv6.ts';
import { features as networkPolicy } from './networkPolicy.ts';
import { features as nodeToPod } from './nodeToPod.ts';
import { features as podToPod } from './podToPod.ts';
import { features as endpointSlices } from './endpointSlices.ts';
import { features as services } from './services.ts';
import { features as serviceChurn } from './serviceChurn.ts';
import { features as udp } from './udp.ts';

export const features: Feature[] = [
  ...podToPod,
  ...dns,
  ...egress,
  ...nodeToPod,
  ...udp,
  ...ipv6,
  ...services,
  ...serviceChurn,
  ...endpointSlices,
  ...networkPolicy,
];
