#!/usr/bin/env node
// The npm bin shim: register tsx in this process, then run the TypeScript CLI here too. No child
// process: signals sent to this pid reach the harness itself (cli/launcher.ts covers npx's own).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
