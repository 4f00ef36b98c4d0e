// The import graph of the sources, drawn from the files themselves: every relative specifier of
// `import`/`export ... from`, `import type`, side-effect imports and `import('...')` with a literal,
// resolved to the file it names (paths relative to the package root, "lib/run/run.ts").

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Source files under `dir` (relative to the root), recursively. */
export function sourceFiles(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const name of readdirSync(abs).sort()) {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(relative(ROOT, p)));
    else if (/\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(ROOT, p));
  }
  return out;
}

const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Strips comments so a specifier quoted in a comment is not an import. */
function code(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The files `file` imports through relative specifiers (package imports are not edges). */
export function importsOf(file: string): string[] {
  const src = code(readFileSync(join(ROOT, file), 'utf8'));
  const out = new Set<string>();
  for (const m of src.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec || !spec.startsWith('.')) continue;
    let target = relative(ROOT, resolve(dirname(join(ROOT, file)), spec));
    if (target.endsWith('.js') && !existsSync(join(ROOT, target)) && existsSync(join(ROOT, target.replace(/\.js$/, '.ts'))))
      target = target.replace(/\.js$/, '.ts');
    out.add(target);
  }
  return [...out].sort();
}

/** The graph over `files`: each file's imports that are among `files`. */
export function graphOf(files: string[]): Map<string, string[]> {
  const set = new Set(files);
  return new Map(files.map(f => [f, importsOf(f).filter(t => set.has(t))]));
}

/** Every import circle of the graph, each as one closed path "a → b → c → a" through one strongly connected component. */
export function circles(graph: Map<string, string[]>): string[] {
  // Tarjan's strongly connected components.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return components.map(c => `${c.length} files (${c.join(', ')}), e.g. ${closedPath(graph, c).join(' → ')}`).sort();
}

/** A shortest path from the component's first file back to itself, inside the component. */
function closedPath(graph: Map<string, string[]>, component: string[]): string[] {
  const inside = new Set(component);
  const start = component[0];
  const prev = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const w of graph.get(queue[i]) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const chain: string[] = [];
        for (let v = queue[i]; v !== start; v = prev.get(v)!) chain.unshift(v);
        return [start, ...chain, start];
      }
      if (!prev.has(w)) {
        prev.set(w, queue[i]);
        queue.push(w);
      }
    }
  }
  return component;
}
