import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
}

// The built package is what users install: check it through its own name, as both module systems resolve it.
describe('the published build', () => {
  beforeAll(() => {
    node(['scripts/ensure-ready.mjs']);
  }, 120_000);

  const probe = `
    const names = ['MemoryStorage', 'ManualClock', 'systemClock', 'InvalidRequest', 'parseDuration', 'formatDuration'];
    const report = (lib) => {
      const storage = new lib.MemoryStorage();
      return storage.put('k', new Uint8Array([1])).then(() => storage.list('')).then((keys) =>
        JSON.stringify({ names: names.filter((n) => n in lib), keys, status: new lib.InvalidRequest('x').status }));
    };`;

  it('imports as ESM', () => {
    const out = node(['--input-type=module', '-e', `${probe} import('strongroom').then(report).then(console.log)`]);
    expect(JSON.parse(out)).toEqual({
      names: ['MemoryStorage', 'ManualClock', 'systemClock', 'InvalidRequest', 'parseDuration', 'formatDuration'],
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
    for (const name of ['Storage', 'Clock', 'CloudProvider', 'EngineRequest', 'EngineResponse', 'AuthGrant', 'MemoryStorage']) {
      expect(types).toContain(name);
    }
    expect(readFileSync(`${root}dist/index.d.cts`, 'utf8')).toContain('MemoryStorage');
  });
});
