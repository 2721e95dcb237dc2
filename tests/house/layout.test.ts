// The house rules of src/, checked on every run so that a new file cannot quietly undo them: imports point down the
// layers, no import circle (type-only imports count: they tie the files' meaning together all the same), no folder
// without a README.md saying what lives in it, no crowded folder and no overlong file.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** The floor of each top-level folder of src/: a file may import files on its own floor or lower ones. */
const FLOORS: Record<string, number> = {
  ports: 0,
  lib: 1,
  core: 2,
  acl: 3,
  encryption: 3,
  kv: 3,
  auth: 3,
  adapters: 4,
  testing: 5,
  server: 6,
  cli: 7,
};
/** The package's entry files (src/*.ts) and the `strongroom` command (src/cli) stand above every other folder. */
const ENTRY_FLOOR = 7;
const MAX_FILES_SIDE_BY_SIDE = 15;
/** About 300 lines, as the house style asks, with room for Prettier's layout of long signatures. */
const MAX_LINES = 340;
/** Generated data, not code a person reads: exempt from the length rule. */
const GENERATED = new Set(['src/auth/certificates/builtin-data.ts']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const files = walk(SRC)
  .filter((path) => path.endsWith('.ts'))
  .map((path) => relative(ROOT, path));
const folders = [...new Set(files.map((file) => dirname(file)))].filter((folder) => folder !== 'src');

/** Relative module specifiers a file names: static imports and re-exports (type-only too) and dynamic imports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gms)) found.push(match[1]!);
  for (const match of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found.filter((specifier) => specifier.startsWith('.'));
}

function resolveImport(from: string, specifier: string): string {
  const base = join(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile()) return candidate;
  }
  throw new Error(`${from} imports ${specifier}, which names no file`);
}

/** What each file imports inside src/ (package.json, read for the version, is data outside the layers). */
const imports = new Map(
  files.map((file) => {
    const targets = specifiers(readFileSync(join(ROOT, file), 'utf8')).map((specifier) =>
      resolveImport(file, specifier),
    );
    return [file, targets.filter((target) => target.startsWith('src/'))];
  }),
);

function floorOf(file: string): number {
  const parts = file.split('/');
  if (parts.length === 2) return ENTRY_FLOOR;
  const floor = FLOORS[parts[1]!];
  if (floor === undefined) throw new Error(`src/${parts[1]}/ has no floor in this test: give it one`);
  return floor;
}

/** Strongly connected parts of a graph with more than one member, or a member that reaches itself (Tarjan). */
function circles(edges: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const part: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        part.push(member);
      } while (member !== node);
      if (part.length > 1 || edges.get(node)?.has(node)) found.push(part.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the layout of src/', () => {
  it('finds the files it judges', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('src/index.ts');
  });

  it('imports point down the layers: ports, lib, core, engines, adapters, testing, server, entries', () => {
    const upward = [...imports].flatMap(([file, targets]) =>
      targets.filter((target) => floorOf(target) > floorOf(file)).map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('no file is part of an import circle', () => {
    const edges = new Map([...imports].map(([file, targets]) => [file, new Set(targets)]));
    expect(circles(edges)).toEqual([]);
  });

  it('no folder is part of an import circle (a sub-folder does not lean on the folder that holds it)', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, targets] of imports) {
      const from = dirname(file);
      for (const target of targets) {
        if (dirname(target) === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(dirname(target));
      }
    }
    expect(circles(edges)).toEqual([]);
  });

  it('every folder says in a README.md what lives in it', () => {
    const missing = folders.filter((folder) => {
      const readme = join(ROOT, folder, 'README.md');
      if (!existsSync(readme)) return true;
      const first =
        readFileSync(readme, 'utf8')
          .split('\n')
          .find((line) => line.trim() !== '') ?? '';
      return !/\w.*\.$/.test(first.replace(/^#+\s*/, '').trim());
    });
    expect(missing).toEqual([]);
  });

  it(`no folder holds more than ${MAX_FILES_SIDE_BY_SIDE} source files side by side`, () => {
    const crowded = folders
      .map((folder) => [folder, files.filter((file) => dirname(file) === folder).length] as const)
      .filter(([, count]) => count > MAX_FILES_SIDE_BY_SIDE);
    expect(crowded).toEqual([]);
  });

  it(`no hand-written file runs past ${MAX_LINES} lines`, () => {
    const long = files
      .filter((file) => !GENERATED.has(file))
      .map((file) => [file, readFileSync(join(ROOT, file), 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
