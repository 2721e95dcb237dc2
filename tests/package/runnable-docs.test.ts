import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import {
  createDocApp,
  documentationFiles,
  linkRepository,
  root,
  runnableBlocks,
  type DocApp,
  type DocBlock,
} from '../support/doc-blocks.js';

/** Casts and non-null assertions: what a user should never need to read our results. */
function castsIn(block: DocBlock): string[] {
  const source = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const isConst =
      ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
    if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) {
      found.push(node.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// Every block marked runnable in README.md and docs/*.md, run exactly as written against the build.
describe('the runnable blocks of the documentation', () => {
  const blocks = documentationFiles().flatMap(runnableBlocks);
  let app: DocApp;

  beforeAll(() => {
    const ready = spawnSync(process.execPath, ['scripts/ensure-ready.mjs'], { cwd: root, encoding: 'utf8' });
    expect(ready.status, ready.stderr).toBe(0);
    app = createDocApp(linkRepository);
  }, 300_000);
  afterAll(() => app?.remove());

  it('include the README embedding example', () => {
    expect(blocks.filter((block) => block.file === 'README.md').length).toBeGreaterThan(0);
  });

  it('type-check strictly, without casts or non-null assertions', () => {
    const typed = blocks.filter((block) => block.language === 'ts');
    for (const block of typed) expect(castsIn(block), `${block.file}:${block.line}`).toEqual([]);
    const result = app.typecheck(typed.map((block) => app.write(block)));
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  it.each(blocks.map((block) => [`${block.file}:${block.line}`, block] as const))(
    '%s runs and its assertions hold',
    (_, block) => {
      const result = app.run(app.write(block));
      expect(result.status, result.output).toBe(0);
    },
    60_000,
  );
});
