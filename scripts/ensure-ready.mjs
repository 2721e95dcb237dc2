// Makes `npm start` and `npm test` work on a fresh clone: installs dependencies when node_modules is missing or older
// than the lockfile, and rebuilds dist/ when any source file is newer than the build.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const at = (...parts) => join(root, ...parts);
const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function run(command) {
  console.error(`[strongroom] ${command}`);
  execSync(command, { cwd: root, stdio: 'inherit' });
}

const installed = at('node_modules', '.package-lock.json');
if (!existsSync(installed) || mtime(at('package-lock.json')) > mtime(installed)) run('npm ci --no-audit --no-fund');

const built = at('dist', 'index.js');
const sourceTime = Math.max(newestIn(at('src')), mtime(at('package.json')), mtime(at('tsup.config.ts')));
if (!existsSync(built) || sourceTime > mtime(built)) run('npm run build --silent');
