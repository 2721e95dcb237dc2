// scripts/ensure-ready.mjs, which `npm start` and `npm test` run first: on a fresh clone it installs and builds, and
// says so step by step instead of keeping silent for minutes. Run for real (npm ci included) on a small project laid
// out like this one, with the script copied in, so the repository's own node_modules and dist/ are left alone.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = new URL('../../scripts/ensure-ready.mjs', import.meta.url).pathname;

/** A project with one local dependency, a lockfile for it, a source file and a build script; nothing installed. */
function freshClone(build: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'strongroom-ensure-ready-'));
  for (const folder of ['scripts', 'src', 'dep']) mkdirSync(join(dir, folder));
  copyFileSync(script, join(dir, 'scripts', 'ensure-ready.mjs'));
  writeFileSync(join(dir, 'src', 'index.ts'), 'export {};\n');
  writeFileSync(join(dir, 'dep', 'package.json'), JSON.stringify({ name: 'dep', version: '1.0.0' }));
  const manifest = { name: 'fresh', version: '1.0.0', private: true, dependencies: { dep: 'file:./dep' } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, scripts: { build } }));
  const lock = {
    name: 'fresh',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'fresh', version: '1.0.0', dependencies: { dep: 'file:./dep' } },
      dep: { version: '1.0.0' },
      'node_modules/dep': { resolved: 'dep', link: true },
    },
  };
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
  return dir;
}

const BUILD = `node -e "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/index.js','')"`;

function ensureReady(dir: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, ['scripts/ensure-ready.mjs'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('scripts/ensure-ready.mjs', () => {
  it('says each step on a fresh clone, then nothing once ready, then only the build after a source change', () => {
    const dir = freshClone(BUILD);
    const first = ensureReady(dir);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr.split('\n').map((line) => line.replace(/[\d.]+ s$/, 'N s'))).toEqual([
      '[strongroom] installing dependencies (npm ci --no-audit --no-fund)...',
      '[strongroom] installing dependencies: done in N s',
      '[strongroom] building dist/ (npm run build --silent)...',
      '[strongroom] building dist/: done in N s',
      '',
    ]);

    expect(ensureReady(dir)).toEqual({ status: 0, stderr: '' });

    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'src', 'index.ts'), later, later);
    const rebuilt = ensureReady(dir);
    expect(rebuilt.status).toBe(0);
    expect(rebuilt.stderr).toMatch(/^\[strongroom\] building dist\/ \(npm run build --silent\)\.\.\.\n.*done in/);
    expect(rebuilt.stderr).not.toContain('installing');
  }, 60_000);

  it('shows the log of a step that fails, and exits 1', () => {
    const dir = freshClone(`node -e "console.error('the build broke'); process.exit(2)"`);
    const failed = ensureReady(dir);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('[strongroom] building dist/ (npm run build --silent)...');
    expect(failed.stderr).toContain('[strongroom] npm run build --silent failed:');
    expect(failed.stderr).toContain('the build broke');
  }, 60_000);
});
