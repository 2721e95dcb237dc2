// npm run mutation [group ...]: StrykerJS over each group of mutation/groups.mjs, then one table of scores per file.
// Not part of npm test or CI: a group takes minutes. A file's score is killed / (killed + survived + no coverage),
// timeouts counted as killed, as Stryker reports it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { GROUPS } from '../mutation/groups.mjs';

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in GROUPS));
if (unknown.length > 0) {
  console.error(`unknown group(s): ${unknown.join(', ')}; groups: ${Object.keys(GROUPS).join(', ')}`);
  process.exit(1);
}
const names = asked.length > 0 ? asked : Object.keys(GROUPS);
const rows = [];
let failed = false;
for (const name of names) {
  console.log(`\n== mutation group ${name}: ${GROUPS[name].mutate.join(', ')}`);
  const run = spawnSync('npx', ['stryker', 'run'], { stdio: 'inherit', env: { ...process.env, MUTATION_GROUP: name } });
  if (run.status !== 0) {
    failed = true;
    continue;
  }
  const report = JSON.parse(readFileSync(`reports/mutation/${name}.json`, 'utf8'));
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const count = (status) => mutants.filter((mutant) => mutant.status === status).length;
    const killed = count('Killed') + count('Timeout');
    const missed = count('Survived') + count('NoCoverage');
    rows.push({
      group: name,
      file,
      killed,
      survived: count('Survived'),
      'no coverage': count('NoCoverage'),
      score: `${((100 * killed) / Math.max(1, killed + missed)).toFixed(1)}%`,
    });
  }
}
console.log();
console.table(rows);
process.exit(failed ? 1 : 0);
