// The bench's memory: every full `npm run bench` appends one line to bench/history.jsonl (the machine, its load when
// the run began, the commit, and each goal's ratio), so that docs/performance.md can chart each goal over time.
// Quick runs are left out: their rounds are too short to mean anything.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/** The commit measured: its short hash, marked `+dirty` when the working tree has changes; `unknown` outside git. */
export function commitOf(cwd) {
  const git = (...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const hash = git('rev-parse', '--short', 'HEAD').trim();
    return git('status', '--porcelain', '--untracked-files=no').trim() === '' ? hash : `${hash}+dirty`;
  } catch {
    return 'unknown';
  }
}

/** One history entry from a results file's content (see report.mjs's writeResults) and the commit it measured. */
export function historyEntry({ machine, settings, results }, commit) {
  return {
    date: machine.date,
    commit,
    machine: { cpu: machine.cpu, cores: machine.cores, node: machine.node },
    loadAverageAtStart: machine.loadAverageAtStart,
    rounds: settings.rounds,
    goals: results
      .filter((row) => row.goal.kind !== 'info' && row.result?.ratio)
      .map((row) => ({
        name: row.name,
        kind: row.goal.kind,
        value: row.goal.value,
        ratio: row.result.ratio.median,
        status: row.status,
      })),
  };
}

/** Appends `entry` as one JSON line. */
export function appendHistory(path, entry) {
  appendFileSync(path, `${JSON.stringify(entry)}\n`);
}

/** Every entry of the history file, oldest first; none when there is no file yet. */
export function readHistory(path) {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}
