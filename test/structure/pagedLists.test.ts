// Every list the harness makes goes through the pager (lib/cluster/list.ts): a generated
// client's list* call anywhere else would read a whole collection in one answer, which on a
// cluster of thousands of pods is megabytes and outlives its deadline.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, sourceFiles } from './imports.ts';

/** A generated client's list call (core.listNode(...), apps.listNamespacedDaemonSet(...)). */
const LIST_CALL = /\.(list[A-Z]\w*)\(/g;

describe('paged lists', () => {
  it("every generated client's list call in lib/ and cli/ is a page fetch handed to the pager", () => {
    const unpaged: string[] = [];
    for (const file of [...sourceFiles('lib'), ...sourceFiles('cli')]) {
      if (file === 'lib/cluster/list.ts') continue;
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(LIST_CALL)) {
          // The page's parameters reach the call: `q => x.listY(q)` or `x.listY({ ..., ...q })`.
          const rest = line.slice(m.index);
          if (/^\.\w+\(q\)/.test(rest) || /^\.\w+\(\{[^()]*\.\.\.q \}\)/.test(rest)) continue;
          unpaged.push(`${file}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(
      unpaged,
      `list calls outside the pager (wrap them: listAll(q => kube.core.listX({ ..., ...q })) or foldPages):\n${unpaged.join('\n')}`,
    ).to.deep.equal([]);
  });
});
