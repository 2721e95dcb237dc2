import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_DOCS, renderDoc } from '../../scripts/route-docs.js';

const root = new URL('../../', import.meta.url).pathname;

// The endpoint and field tables of the docs are written from the route rows: a summary or a field description changed
// in the code, or a path added, must reach the docs.
describe('the route tables of the docs', () => {
  it.each(ROUTE_DOCS.map((doc) => [doc.file, doc] as const))('%s matches the route rows', (file, doc) => {
    const text = readFileSync(join(root, file), 'utf8');
    const current = renderDoc(text, doc) === text;
    expect(current, `${file} differs from the route rows: run \`npm run docs:routes\``).toBe(true);
  });

  it('name every path with fields, and only paths that exist', () => {
    const doc = ROUTE_DOCS.find(({ name }) => name === 'kv')!;
    const text = readFileSync(join(root, doc.file), 'utf8');
    const withoutData = text.replace(
      /<!-- fields:kv data\/:path begin -->[\s\S]*?<!-- fields:kv data\/:path end -->\n/,
      '',
    );
    expect(() => renderDoc(withoutData, doc)).toThrow('docs/kv.md has no table of the fields of data/:path');
    const unknown = `${text}\n<!-- fields:kv nowhere/:path begin -->\n<!-- fields:kv nowhere/:path end -->\n`;
    expect(() => renderDoc(unknown, doc)).toThrow('names nowhere/:path, which no route has');
  });
});
