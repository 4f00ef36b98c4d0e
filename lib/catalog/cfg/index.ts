// Configuration: Secrets and ConfigMaps (cfg.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as env } from './env.ts';
import { features as fileAcl } from './fileAcl.ts';
import { features as volumes } from './volumes.ts';

export const features: Feature[] = [...volumes, ...fileAcl, ...env];
