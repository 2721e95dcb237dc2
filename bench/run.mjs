// `npm run bench`: every speed goal of the project measured side by side in one run, printed as a table and written
// to bench/results.json. A missed goal is reported, not fatal: this is a measurement, not a test.
//   node bench/run.mjs [--quick] [--only=kv,login,...]
import { fileURLToPath } from 'node:url';
import { configure, settings } from './harness.mjs';
import { awsBenchmarks } from './aws.mjs';
import { concurrencyBenchmarks } from './concurrency.mjs';
import { encryptionBenchmarks } from './encryption.mjs';
import { kvBenchmarks } from './kv.mjs';
import { listingBenchmarks } from './listing.mjs';
import { loginBenchmarks } from './login.mjs';
import { memoryBenchmarks } from './memory.mjs';
import { storageBenchmarks } from './storage.mjs';
import { verifyBenchmarks } from './verify.mjs';
import { finish, machine, printTable, writeResults } from './report.mjs';

const SECTIONS = {
  kv: kvBenchmarks,
  listing: listingBenchmarks,
  verify: verifyBenchmarks,
  login: loginBenchmarks,
  memory: memoryBenchmarks,
  concurrency: concurrencyBenchmarks,
  aws: awsBenchmarks,
  encryption: encryptionBenchmarks,
  storage: storageBenchmarks,
};

const args = process.argv.slice(2);
// Too short for the JIT to settle: checks that every benchmark runs, its figures are not representative.
const quick = args.includes('--quick');
if (quick) configure({ rounds: 2, time: 100, warmupTime: 50 });
const only = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');

const log = (message) => console.error(`[bench] ${message}`);
const host = machine();
log(`${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}; ${settings.rounds} rounds of ${settings.time} ms per task`);

const started = performance.now();
const rows = [];
for (const [name, run] of Object.entries(SECTIONS)) {
  if (only && !only.includes(name)) continue;
  rows.push(...(await run(log)));
}
const seconds = Math.round((performance.now() - started) / 100) / 10;

const finished = finish(rows);
console.log();
printTable(finished);
if (quick) console.log('(--quick: figures from short rounds, not representative; run without it to measure)');
const output = fileURLToPath(new URL('results.json', import.meta.url));
writeResults(output, { machine: host, settings: { ...settings, quick }, finished, seconds });
log(`${seconds} s; results written to ${output}`);
