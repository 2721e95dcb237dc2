// The harness example of docs/aws.md, run exactly as written: it imports the package by its public names, which the
// test configuration maps to the sources.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';

const directory = mkdtempSync(join(tmpdir(), 'strongroom-docs-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function exampleBlock(marker: string): string {
  const page = readFileSync(new URL('../../docs/aws.md', import.meta.url), 'utf8');
  const match = new RegExp(`<!-- example: ${marker} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(page);
  if (!match) throw new Error(`docs/aws.md has no example "${marker}"`);
  return match[1] as string;
}

it('docs/aws.md: the harness ec2 login through strongroom/testing succeeds with the role policies', async () => {
  const file = join(directory, 'harness-login.ts');
  writeFileSync(file, exampleBlock('harness-login'));
  const printed: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));
  try {
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
  }
  expect(printed).toEqual([[200, ['web']]]);
});
