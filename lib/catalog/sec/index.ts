// Security (sec.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as security } from './security.ts';

export const features: Feature[] = [...security];
