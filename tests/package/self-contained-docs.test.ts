import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, root } from '../support/doc-blocks.js';

// Users read these in the package or on the repository page: a rule must be explained where it is stated, never by
// pointing at the project's internal requirement files.
const INTERNAL_REFERENCES: [string, RegExp][] = [
  ['a numbered decision', /DECISIONS\s*\d/],
  ['the interface documents', /\bspec\/[\w-]+/],
  ['the contract file', /\bCONTRACT\b/],
  ['the reference notes', /\breference\/[\w-]+|reference §/],
  ['a section number of an internal document', /(?<!RFC \d+ )§\s*\d/],
];

describe('the documentation', () => {
  it.each(documentationFiles())('%s cites nothing a user does not have', (file) => {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const found = lines.flatMap((line, index) =>
      INTERNAL_REFERENCES.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${index + 1}: ${what}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
