// The Windows node itself (node.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as bootId } from './bootId.ts';
import { features as node } from './node.ts';
import { features as reboot } from './reboot.ts';
import { features as gracefulShutdown } from './gracefulShutdown.ts';

export const features: Feature[] = [...node, ...bootId, ...reboot, ...gracefulShutdown];
