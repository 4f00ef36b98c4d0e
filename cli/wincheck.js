#!/usr/bin/env node
// The npm bin shim: register tsx, then run the TypeScript CLI.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
