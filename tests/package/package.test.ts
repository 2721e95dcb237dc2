import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
}

// The built package is what users install: check it through its own name, as both module systems resolve it.
describe('the published build', () => {
  let readyOutput = '';
  beforeAll(() => {
    const ready = spawnSync(process.execPath, ['scripts/ensure-ready.mjs'], { cwd: root, encoding: 'utf8' });
    expect(ready.status).toBe(0);
    readyOutput = ready.stdout + ready.stderr;
  }, 300_000);

  it('gets ready for `npm start` and `npm test` without printing anything', () => {
    expect(readyOutput).toBe('');
  });

  it('builds without warnings', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'strongroom-build-'));
    try {
      const tsup = join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
      const build = spawnSync(process.execPath, [tsup, '--no-dts', '--no-sourcemap', '--out-dir', outDir], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(build.status).toBe(0);
      expect(build.stdout + build.stderr).toContain('Build success');
      expect(build.stdout + build.stderr).not.toMatch(/warn/i);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 60_000);

  // `"sideEffects": false` in package.json promises bundlers this; a polyfill such as reflect-metadata would break it.
  // zod keeps its configuration and schema registry on globalThis (under __zod_) so that copies of it share them: that
  // is zod's own and touches nothing else.
  it.each([
    ['ESM', 'module', `await import('strongroom');`],
    ['CommonJS', 'commonjs', `require('strongroom');`],
  ])('changes no global when imported as %s', (_, inputType, load) => {
    const globals = `[...Reflect.ownKeys(globalThis), ...Reflect.ownKeys(Reflect)].map(String).filter((k) => !k.startsWith('__zod_')).sort().join(',')`;
    const script = `const before = ${globals}; ${load} console.log(JSON.stringify({ same: before === ${globals}, getMetadata: typeof Reflect.getMetadata }));`;
    expect(JSON.parse(node([`--input-type=${inputType}`, '-e', script]))).toEqual({
      same: true,
      getMetadata: 'undefined',
    });
  });

  const probe = `
    const names = ['MemoryStorage', 'ManualClock', 'systemClock', 'InvalidRequest', 'KvEngine', 'AuthMethod'];
    const report = (lib) => {
      const storage = new lib.MemoryStorage();
      return storage.put('k', new Uint8Array([1])).then(() => storage.list('')).then((keys) =>
        JSON.stringify({ names: names.filter((n) => n in lib), keys, status: new lib.InvalidRequest('x').status }));
    };`;

  it('imports as ESM', () => {
    const out = node(['--input-type=module', '-e', `${probe} import('strongroom').then(report).then(console.log)`]);
    expect(JSON.parse(out)).toEqual({
      names: ['MemoryStorage', 'ManualClock', 'systemClock', 'InvalidRequest', 'KvEngine', 'AuthMethod'],
      keys: ['k'],
      status: 400,
    });
  });

  it('requires as CommonJS', () => {
    const out = node(['--input-type=commonjs', '-e', `${probe} report(require('strongroom')).then(console.log)`]);
    expect(JSON.parse(out).keys).toEqual(['k']);
  });

  it('ships type declarations for both module systems and the engines field', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(pkg.engines.node).toBe('>=20.19');
    const types = readFileSync(`${root}dist/index.d.ts`, 'utf8');
    for (const name of [
      'Storage',
      'Clock',
      'CloudProvider',
      'EngineRequest',
      'EngineResponse',
      'AuthGrant',
      'MemoryStorage',
    ]) {
      expect(types).toContain(name);
    }
    expect(readFileSync(`${root}dist/index.d.cts`, 'utf8')).toContain('MemoryStorage');
  });
});
