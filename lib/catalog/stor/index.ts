// Storage (stor.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as subpathCleanup } from './subpathCleanup.ts';
import { features as volumes } from './volumes.ts';

export const features: Feature[] = [...volumes, ...subpathCleanup];
