import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The runnable code blocks of the documentation, and a throw-away app to run them in as a user would: the block's
 * text is written to a file unchanged, `strongroom` resolves to the build, TypeScript is type-checked by tsc and run
 * by node after its types are stripped.
 *
 * A block is runnable when its fence says so: ```ts runnable (or js, mjs). Renderers still highlight it by its language.
 */

export const root = new URL('../../', import.meta.url).pathname;

export interface DocBlock {
  /** Relative to the repository root, e.g. docs/kv.md. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: 'ts' | 'js';
  code: string;
}

const OPENING = /^```(ts|typescript|js|javascript|mjs)\s+runnable\s*$/;

export function runnableBlocks(file: string): DocBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = OPENING.exec(lines[index] as string);
    if (!opening) continue;
    const end = lines.findIndex((line, at) => at > index && /^```\s*$/.test(line));
    if (end < 0) throw new Error(`${file}:${index + 1}: runnable block never closed`);
    const language = opening[1]?.startsWith('t') ? 'ts' : 'js';
    blocks.push({ file, line: index + 1, language, code: lines.slice(index + 1, end).join('\n') + '\n' });
    index = end;
  }
  return blocks;
}

/** README.md and every docs/*.md. */
export function documentationFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

/** A file name for a block: docs/kv.md line 12 -> docs-kv-md-12.ts. */
export function blockFileName(block: DocBlock): string {
  return `${block.file.replace(/[^a-z0-9]+/gi, '-')}-${block.line}.${block.language}`;
}

/** The packages the app itself installs besides strongroom, copied from this repository's node_modules. */
const APP_DEV_PACKAGES = ['@types/node', 'undici-types'];

export interface DocApp {
  dir: string;
  /** Writes the block's text unchanged, under blockFileName(block). */
  write(block: DocBlock): string;
  /** `tsc --noEmit` over the given .ts files with the app's tsconfig; answers its output (empty when clean). */
  typecheck(
    files: string[],
    options?: { nodeTypes?: boolean; resolution?: 'nodenext' | 'node' },
  ): { status: number | null; output: string };
  /** Runs a block's file with node (a .ts file after stripping its types); answers exit status and output. */
  run(file: string): { status: number | null; output: string };
  remove(): void;
}

/**
 * A new app in a temp directory. `install` puts strongroom into its node_modules: a symlink to this repository (the
 * build, through package.json `exports`) or an npm install of a packed tarball.
 */
export function createDocApp(install: (dir: string) => void): DocApp {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'strongroom-app-')));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }, null, 2));
  install(dir);
  for (const name of APP_DEV_PACKAGES) copyPackage(name, join(root, 'node_modules'), dir);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  return {
    dir,
    write(block) {
      const path = join(dir, blockFileName(block));
      writeFileSync(path, block.code);
      return path;
    },
    typecheck(files, { nodeTypes = true, resolution = 'nodenext' } = {}) {
      // What `tsc --init` gives a new project (strict, skipLibCheck), with the module settings of a Node app, or of an
      // older project that still resolves modules the CommonJS way (`node`, which ignores package.json `exports`).
      const config = {
        compilerOptions: {
          target: 'es2022',
          module: resolution === 'node' ? 'commonjs' : 'nodenext',
          moduleResolution: resolution,
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: nodeTypes ? ['node'] : [],
        },
        files: files.map((file) => relative(dir, file)),
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
      const result = spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' });
      return { status: result.status, output: result.stdout + result.stderr };
    },
    run(file) {
      let target = file;
      if (file.endsWith('.ts')) {
        target = file.replace(/\.ts$/, '.mjs');
        const options = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false };
        writeFileSync(target, ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: options }).outputText);
      } else if (file.endsWith('.js')) {
        target = file.replace(/\.js$/, '.mjs');
        writeFileSync(target, readFileSync(file, 'utf8'));
      }
      const result = spawnSync(process.execPath, [target], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      return { status: result.status, output: result.stdout + result.stderr };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Copies a package directory (with its nested node_modules) from `from` into the app's node_modules. */
export function copyPackage(name: string, from: string, app: string): void {
  const source = join(from, name);
  if (!existsSync(source)) throw new Error(`${name} is not installed in ${from}`);
  const target = join(app, 'node_modules', name);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(realpathSync(source), target, { recursive: true, dereference: true });
}

/** strongroom as the repository's own build, without packing: a symlink, the way `npm link` would do it. */
export function linkRepository(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(root.replace(/\/$/, ''), join(dir, 'node_modules', 'strongroom'), 'dir');
}

/** The directories under node_modules holding `names` and everything they depend on at run time, top-level ones only. */
export function runtimeClosure(names: string[], nodeModules: string): string[] {
  const topLevel = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    // Node's lookup: the nearest node_modules up from the dependent package.
    for (let dir = from; ; dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) {
        if (seen.has(candidate)) return;
        seen.add(candidate);
        if (candidate === join(nodeModules, name)) topLevel.add(name);
        const manifest = JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8'));
        for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, candidate);
        return;
      }
      if (dir === dirname(nodeModules) || dir === '/') throw new Error(`cannot resolve ${name} from ${from}`);
    }
  };
  for (const name of names) visit(name, dirname(nodeModules));
  return [...topLevel].sort();
}

/** npm's own command, as this process was given it (or on PATH). */
export function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
