// Per-request state that admission plugins reach without threading it through the
// store: who is asking (Pod Security exemptions by username) and the warnings to send
// back as Warning headers (Pod Security's warn mode). Controllers' own writes run
// outside any request and see none.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { UserInfo } from './auth/identity.ts';

export interface RequestContext {
  user: UserInfo;
  warnings: string[];
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequest<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

export function addWarning(text: string): void {
  const ctx = storage.getStore();
  if (ctx && !ctx.warnings.includes(text)) ctx.warnings.push(text);
}

/** RFC 7234 warn-code 299 header values, as the API server sends them. */
export function warningHeaderValues(): string[] {
  return (storage.getStore()?.warnings ?? []).map(w => `299 - ${JSON.stringify(w)}`);
}
