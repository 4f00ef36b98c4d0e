// Isolation (iso.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as isolation } from './isolation.ts';
import { features as hostProcessVolumes } from './hostProcessVolumes.ts';
import { features as hostProcessInit } from './hostProcessInit.ts';
import { features as hostProcessLocalGroup } from './hostProcessLocalGroup.ts';
import { features as hostProcessStats } from './hostProcessStats.ts';
import { features as hostProcessMetrics } from './hostProcessMetrics.ts';
import { features as hostProcessCommandPaths } from './hostProcessCommandPaths.ts';

export const features: Feature[] = [
  ...isolation,
  ...hostProcessVolumes,
  ...hostProcessInit,
  ...hostProcessLocalGroup,
  ...hostProcessStats,
  ...hostProcessMetrics,
  ...hostProcessCommandPaths,
];
