// Scheduling and placement (sched.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as placement } from './placement.ts';

export const features: Feature[] = [...placement];
