#!/usr/bin/env -S node --max-semi-space-size=2
// The npm bin shim: register tsx in this process, then run the TypeScript CLI here too. No child
// process: signals sent to this pid reach the harness itself (cli/launcher.ts covers npx's own).
// --max-semi-space-size=2 (MB): a small young generation keeps the harness's peak RSS about
// 50 MB lower (bench/critical-path.ts measures it); the harness waits far more than it computes.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
