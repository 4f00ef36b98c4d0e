// Lets `npx mocha test/sim-network` find the TypeScript tests: mocha looks only for
// .js/.cjs/.mjs files in a directory unless --extension ts is given (.mocharc.json
// does not set it). Under --extension ts this file is skipped, so nothing runs twice.
import './affinity.test.ts';
import './dns.test.ts';
import './paths.test.ts';
import './services.test.ts';
import './ssh.test.ts';
import './stop.test.ts';
import './policy.test.ts';
import './extra.test.ts';
