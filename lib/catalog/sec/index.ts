// Security (sec.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as security } from './security.ts';
import { features as userNames } from './userNames.ts';
import { features as gmsa } from './gmsa.ts';

export const features: Feature[] = [...security, ...userNames, ...gmsa];
