// Makes `npm start` and `npm test` work on a fresh clone: installs dependencies when node_modules does not hold what
// the lockfile names, and rebuilds dist/ when any source file is newer than the build. Says each step it takes (on a
// fresh clone they take a minute or two) and how long it took; silent when there is nothing to do. The install and
// build logs are shown only when they fail.
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

// Compared by content, not timestamps: a checkout that touches the lockfile without changing a version (moving a
// package between dependencies and devDependencies, say) must not wipe and reinstall a working node_modules.
function installMatchesLock() {
  const installedPath = at('node_modules', '.package-lock.json');
  if (!existsSync(installedPath)) return false;
  const wanted = JSON.parse(readFileSync(at('package-lock.json'), 'utf8')).packages;
  const installed = JSON.parse(readFileSync(installedPath, 'utf8')).packages;
  // Optional packages are platform-specific builds: only those for this machine are installed.
  const missing = Object.entries(wanted).some(
    ([path, entry]) => path !== '' && !entry.optional && !(path in installed),
  );
  return !missing && Object.entries(installed).every(([path, entry]) => wanted[path]?.version === entry.version);
}

class StepFailed extends Error {}

function step(what, command) {
  process.stderr.write(`[strongroom] ${what} (${command})...\n`);
  const started = Date.now();
  try {
    execSync(command, { cwd: root, stdio: 'pipe' });
  } catch (error) {
    process.stderr.write(`[strongroom] ${command} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw new StepFailed(command);
  }
  process.stderr.write(`[strongroom] ${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// Several test files (or `npm start` beside `npm test`) may get ready at once: one installs and builds while the others
// wait, so no build cleans dist/ under another. A lock older than any build is left by a killed run.
const lock = at('.ensure-ready.lock');
const STALE_MS = 600_000;
function locked(work) {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > STALE_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

try {
  locked(() => {
    if (!installMatchesLock()) step('installing dependencies', 'npm ci --no-audit --no-fund');
    const built = at('dist', 'index.js');
    const sourceTime = Math.max(newestIn(at('src')), mtime(at('package.json')), mtime(at('tsup.config.ts')));
    if (!existsSync(built) || sourceTime > mtime(built)) step('building dist/', 'npm run build --silent');
  });
} catch (error) {
  if (!(error instanceof StepFailed)) throw error;
  process.exitCode = 1;
}
