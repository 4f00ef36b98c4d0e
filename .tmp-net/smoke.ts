import { startSim } from '../sim/index.ts';
async function main() {
const t = Date.now();
const s = await startSim({ profile: 'default' });
console.log('started', s.server, Date.now() - t, !!s.ssh);
await s.stop();
console.log('stopped');
}
main();
