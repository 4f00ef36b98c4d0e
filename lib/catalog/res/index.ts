// Resources and metrics (res.*): the area's features, in catalog order. Fixture templates in ./fixtures/.

import type { Feature } from '../types.ts';
import { features as resources } from './resources.ts';
import { features as resourceMetrics } from './resourceMetrics.ts';
import { features as statsUnderLoad } from './statsUnderLoad.ts';
import { features as allocatable } from './allocatable.ts';
import { features as pastAllocatable } from './pastAllocatable.ts';
import { features as directxDevice } from './directxDevice.ts';
import { features as evictionMemoryPressure } from './evictionMemoryPressure.ts';

export const features: Feature[] = [
  ...resources,
  ...allocatable,
  ...pastAllocatable,
  ...statsUnderLoad,
  ...resourceMetrics,
  ...directxDevice,
  ...evictionMemoryPressure,
];
