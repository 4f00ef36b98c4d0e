// wincheck entry point: everything happens in root.ts.
import { main } from './root.ts';

process.exit(await main(process.argv));
