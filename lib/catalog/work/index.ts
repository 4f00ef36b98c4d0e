// Workloads (work.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as autoscaling } from './autoscaling.ts';
import { features as buildMismatch } from './buildMismatch.ts';
import { features as controllers } from './controllers.ts';
import { features as envNames } from './envNames.ts';
import { features as multiContainer } from './multiContainer.ts';
import { features as statefulset } from './statefulset.ts';
import { features as statefulsetRecreate } from './statefulsetRecreate.ts';
import { features as startupLatency } from './startupLatency.ts';
import { features as stopSignal } from './stopSignal.ts';
import { features as streams } from './streams.ts';

export const features: Feature[] = [
  ...statefulset,
  ...statefulsetRecreate,
  ...multiContainer,
  ...streams,
  ...buildMismatch,
  ...envNames,
  ...autoscaling,
  ...controllers,
  ...stopSignal,
  ...startupLatency,
];
