// Networking and Services (net.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as pods } from './pods.ts';
import { features as services } from './services.ts';

export const features: Feature[] = [...pods, ...services];
