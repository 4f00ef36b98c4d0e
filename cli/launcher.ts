// Signals reach the harness however it is started. Under `npx wincheck` (npm exec → sh → node)
// a SIGTERM from a CI runner, `timeout` or a container runtime kills npm and its shell but not
// us: we would run on, orphaned and unaware. So when npm launched us, we watch the chain of
// processes up to npm, and take its disappearance as the SIGTERM it was meant to be.

import { readFileSync } from 'node:fs';
import { signalsReceived } from '../lib/run/signals.ts';
import { processExists } from '../lib/process.ts';

const POLL_MS = 500;

/** Our ancestors up to and including the npm process (Linux /proc); [] when not found. */
export function launcherChain(startPid = process.ppid, maxDepth = 5): number[] {
  const chain: number[] = [];
  let pid = startPid;
  for (let i = 0; i < maxDepth && pid > 1; i++) {
    chain.push(pid);
    let cmdline: string;
    let stat: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return [];
    }
    // npm sets its process title to "npm exec ..." / "npm run ..." / "npm start".
    if (/^npm( |$)|\/npm-cli\.js|\/npx-cli\.js/.test(cmdline)) return chain;
    // stat: "pid (comm) state ppid ..."; comm may contain spaces, so parse after the last ')'.
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return [];
}

/**
 * When started by npm, sends ourselves SIGTERM (the run's own handler cleans up) as soon as a
 * process between us and npm is gone. Returns a stop function; does nothing elsewhere.
 */
export function forwardLauncherDeath(env: NodeJS.ProcessEnv = process.env): () => void {
  if (!env.npm_command && !env.npm_lifecycle_event) return () => undefined;
  const chain = launcherChain();
  if (!chain.length) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent && chain.every(processExists)) return;
    clearInterval(timer);
    // npm may have forwarded the signal before it went: one is enough (two mean "exit at once").
    if (!signalsReceived.length) process.kill(process.pid, 'SIGTERM');
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
