// Workloads (work.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as controllers } from './controllers.ts';
import { features as workloads } from './workloads.ts';

export const features: Feature[] = [...workloads, ...controllers];
