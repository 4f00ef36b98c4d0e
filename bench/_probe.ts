import { loadProfile } from '../sim/profiles/load.ts';
import { simSettled, startSimRetrying } from './support.ts';
for (const lat of [500, 400, 300]) {
  const profile = { ...loadProfile('default'), imagePullLatencyMs: lat };
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now();
    const sim = await startSimRetrying(profile, console.log);
    const t1 = performance.now();
    await simSettled(sim);
    const t2 = performance.now();
    await sim.stop(); sim.cleanupDir();
    console.log(lat, 'start', (t1 - t0).toFixed(0), 'settle', (t2 - t1).toFixed(0), 'stop', (performance.now() - t2).toFixed(0));
  }
}
