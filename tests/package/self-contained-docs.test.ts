import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, root } from '../support/doc-blocks.js';

// Users read the documentation in the package or on the repository page, and maintainers read the code with only the
// repository at hand: a rule is explained where it is stated, or in docs/decisions.md, never by pointing at material
// the repository does not hold.
const INTERNAL_REFERENCES: [string, RegExp][] = [
  ['a decision kept outside the repository', /DECISIONS\s*\d|DECISIONS\.md/],
  ['the interface documents', /\bspec\/[\w-]+/],
  ['the contract file', /\bCONTRACT\b/],
  ['the reference notes', /\breference\/[\w-]+|reference §|\b[Tt]he reference\b/],
  ['a folder outside the repository', /\.\.\/shared\b/],
  ['a section number of an internal document', /(?<!RFC \d+ |RFC \d+, )§\s*\d/],
];

/** The code, tests, bench and scripts: everything but vendored fixtures and this file, which names the patterns. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(path);
    return /\.(ts|mjs|js)$/.test(entry.name) && path !== relative(root, new URL(import.meta.url).pathname)
      ? [path]
      : [];
  });
}

function citations(file: string): string[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  return lines.flatMap((line, index) =>
    INTERNAL_REFERENCES.filter(([, pattern]) => pattern.test(line)).map(
      ([what]) => `${file}:${index + 1}: ${what}: ${line.trim()}`,
    ),
  );
}

describe('the repository stands alone', () => {
  it.each(documentationFiles())('%s cites nothing a user does not have', (file) => {
    expect(citations(file)).toEqual([]);
  });

  it.each(['src', 'tests', 'bench', 'scripts', 'examples'])('%s/ cites nothing a maintainer does not have', (dir) => {
    expect(sourceFiles(dir).flatMap(citations)).toEqual([]);
  });
});
