// wincheck entry point: everything happens in root.ts.
import { forwardLauncherDeath } from './launcher.ts';
import { main } from './root.ts';

forwardLauncherDeath();
process.exit(await main(process.argv));
