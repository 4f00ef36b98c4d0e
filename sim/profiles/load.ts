// Loads a cluster profile: a built-in name (./builtin/<name>.yaml) or a YAML file path.
// Every problem is one line naming the file and the field, so a user can fix it at once.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, YAMLParseError } from 'yaml';
import { BREAKABLE, type BreakKey, type Limitations, type Profile } from './types.ts';
import { LIMITATION_KEYS } from './limitations.ts';
import { validateProfile } from './profileSchema.ts';
import { SchemaError } from './schema.ts';

export class ProfileError extends Error {
  override name = 'ProfileError';
}

const BUILTIN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'builtin');

/** Names of the built-in profiles, sorted. */
export function builtinProfileNames(): string[] {
  return readdirSync(BUILTIN_DIR)
    .filter(f => f.endsWith('.yaml'))
    .map(f => f.slice(0, -5))
    .sort();
}

const looksLikePath = (s: string) => s.includes('/') || s.includes('\\') || /\.ya?ml$/.test(s);

/** chain: the files that led here through `base` (a profile reached again is a loop). */
export function loadProfile(nameOrFile: string, chain: string[] = []): Profile {
  if (!looksLikePath(nameOrFile)) {
    if (!builtinProfileNames().includes(nameOrFile))
      throw new ProfileError(`unknown profile "${nameOrFile}"; built-in profiles: ${builtinProfileNames().join(', ')} (or give a path to a YAML file)`);
    // Shown relative to the repository root, e.g. "sim/profiles/builtin/default.yaml".
    const file = join(BUILTIN_DIR, `${nameOrFile}.yaml`);
    return loadProfileFile(file, relative(join(BUILTIN_DIR, '..', '..', '..'), file), chain);
  }
  if (!existsSync(nameOrFile)) throw new ProfileError(`${nameOrFile}: no such profile file`);
  return loadProfileFile(nameOrFile, nameOrFile, chain);
}

function shownPath(file: string): string {
  const r = relative(process.cwd(), file);
  return r && !r.startsWith('..') ? r : file;
}

function loadProfileFile(file: string, shownAs: string, chain: string[]): Profile {
  const key = resolve(file);
  if (chain.includes(key))
    throw new ProfileError(`${shownAs}: base: inheritance loop (${[...chain.slice(chain.indexOf(key)), key].map(shownPath).join(' -> ')})`);
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const msg = e instanceof YAMLParseError ? e.message : String(e);
    throw new ProfileError(`${shownAs}: not valid YAML: ${msg.split('\n')[0]}`);
  }
  try {
    return validateProfile(withBase(doc, file, shownAs, [...chain, key]));
  } catch (e) {
    if (e instanceof SchemaError) throw new ProfileError(`${shownAs}: ${e.message}`);
    throw e;
  }
}

/**
 * `base: <built-in name or file>` lets a profile state only what differs: `limitations`,
 * `addons` and `network` merge into the base's, `breaks` add to them, any other field
 * replaces the base's.
 */
function withBase(doc: unknown, file: string, shownAs: string, chain: string[]): unknown {
  if (doc === null || typeof doc !== 'object' || !('base' in doc)) return doc;
  const { base, ...own } = doc as Record<string, unknown>;
  if (typeof base !== 'string') throw new ProfileError(`${shownAs}: base must be a built-in profile name or a file path`);
  let baseProfile: Record<string, unknown>;
  try {
    baseProfile = loadProfile(looksLikePath(base) ? join(dirname(file), base) : base, chain) as unknown as Record<string, unknown>;
  } catch (e) {
    if (e instanceof ProfileError) throw new ProfileError(e.message.includes('inheritance loop') ? e.message : `${shownAs}: base: ${e.message}`);
    throw e;
  }
  const merged: Record<string, unknown> = { ...baseProfile, ...own };
  for (const key of ['limitations', 'addons', 'network'])
    if (own[key] && typeof own[key] === 'object') merged[key] = { ...(baseProfile[key] as object | undefined), ...(own[key] as object) };
  if (Array.isArray(own.breaks)) merged.breaks = [...new Set([...((baseProfile.breaks as unknown[] | undefined) ?? []), ...own.breaks])];
  return merged;
}

/**
 * A copy of the profile with limitations merged in and breaks added (for tests that
 * lift a limitation or break a supported path). Unknown names throw ProfileError.
 */
export function withOverrides(profile: Profile, o: { limitations?: Limitations; breaks?: BreakKey[] }): Profile {
  for (const k of Object.keys(o.limitations ?? {}))
    if (!(LIMITATION_KEYS as readonly string[]).includes(k)) throw new ProfileError(`overrides: limitations.${k} is not a known limitation`);
  for (const b of o.breaks ?? []) if (!(BREAKABLE as readonly string[]).includes(b)) throw new ProfileError(`overrides: breaks "${b}" is not a known break`);
  const next = structuredClone(profile);
  next.limitations = { ...next.limitations, ...o.limitations };
  next.breaks = [...new Set([...(next.breaks ?? []), ...(o.breaks ?? [])])];
  return next;
}

/**
 * True when a documented limitation holds (every limitation is on unless the profile lifts
 * it). With a node: that node's own setting wins over the profile's.
 */
export function limitationHolds(profile: Profile, key: keyof Limitations, node?: string): boolean {
  const own = node === undefined ? undefined : profile.nodes.find(n => n.name === node)?.limitations?.[key];
  return (own ?? profile.limitations?.[key]) !== false;
}

/** True when the profile breaks the behaviour; with a node, also when only that node does. */
export function isBroken(profile: Profile, key: BreakKey, node?: string): boolean {
  if (profile.breaks?.includes(key)) return true;
  return node !== undefined && (profile.nodes.find(n => n.name === node)?.breaks?.includes(key) ?? false);
}

/**
 * The profile as one node sees it: the node's own breaks added and its limitations merged
 * over the profile's, so code that reads profile.breaks/limitations gets per-node behaviour.
 */
export function profileForNode(profile: Profile, node: string): Profile {
  const spec = profile.nodes.find(n => n.name === node);
  if (!spec?.breaks?.length && !spec?.limitations) return profile;
  return {
    ...profile,
    breaks: [...new Set([...(profile.breaks ?? []), ...(spec.breaks ?? [])])],
    limitations: { ...profile.limitations, ...spec.limitations },
  };
}
