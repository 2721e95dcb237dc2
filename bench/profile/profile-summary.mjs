// Summarises the newest .cpuprofile in a directory (written by node --cpu-prof): self time per function, top first.
//   node bench/profile/profile-summary.mjs <directory> [rows]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [directory, rows = '25'] = process.argv.slice(2);
if (!directory) throw new Error('usage: node bench/profile/profile-summary.mjs <directory> [rows]');
const newest = readdirSync(directory)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => join(directory, name))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!newest) throw new Error(`no .cpuprofile in ${directory}`);

const profile = JSON.parse(readFileSync(newest, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
let total = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  const where = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  selfTime.set(where, (selfTime.get(where) ?? 0) + delta);
  total += delta;
});
console.log(`${newest}: ${(total / 1e6).toFixed(1)} s sampled`);
for (const [where, time] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) {
  console.log(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${where}`);
}
