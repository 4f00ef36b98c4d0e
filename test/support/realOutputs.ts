// The corpus of real Windows outputs in test/data/real-outputs/: one sample a file, its public
// source on the first line ("# SOURCE: …"), the text as published after it.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REAL_OUTPUTS_DIR = join(import.meta.dirname, '..', 'data', 'real-outputs');

export interface RealOutput {
  file: string;
  /** The source line without "# SOURCE: ". */
  source: string;
  /** The sample as published (CRLF kept where the file has it). */
  text: string;
}

/** Every sample's file name, sorted. */
export function realOutputFiles(): string[] {
  return readdirSync(REAL_OUTPUTS_DIR)
    .filter(f => f.endsWith('.txt'))
    .sort();
}

/** One sample by its file name or its number prefix ("38" → 38-nslookup-….txt). */
export function realOutput(name: string): RealOutput {
  const file = realOutputFiles().find(f => f === name || f.startsWith(`${name}-`));
  if (!file) throw new Error(`no real output ${name} in ${REAL_OUTPUTS_DIR}`);
  const all = readFileSync(join(REAL_OUTPUTS_DIR, file), 'utf8');
  const nl = all.indexOf('\n');
  const first = nl < 0 ? all : all.slice(0, nl);
  if (!first.startsWith('# SOURCE: ')) throw new Error(`${file}: the first line must be "# SOURCE: …"`);
  return { file, source: first.slice('# SOURCE: '.length).replace(/\r$/, ''), text: nl < 0 ? '' : all.slice(nl + 1) };
}

/** The sample's source URL (the first http(s) address of its source line), else the source line. */
export function sourceOf(name: string): string {
  const s = realOutput(name).source;
  return /https?:\/\/\S+/.exec(s)?.[0] ?? s.split(' (')[0];
}
