// `npm run bench`: every speed goal of the project measured side by side in one run, printed as a table and written
// to bench/results.json; a whole run is also appended to bench/history.jsonl and charted (history.mjs, chart.mjs). A missed goal is reported, not fatal: this is a measurement, not a test.
//   node bench/run.mjs [--quick] [--only=kv,login,...]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { configure, settings } from './harness/harness.mjs';
import { awsBenchmarks } from './login/aws.mjs';
import { concurrencyBenchmarks } from './concurrency.mjs';
import { encryptionBenchmarks } from './encryption.mjs';
import { kvBenchmarks } from './kv.mjs';
import { listingBenchmarks } from './listing.mjs';
import { loginBenchmarks } from './login/login.mjs';
import { memoryBenchmarks } from './memory.mjs';
import { serverLoadBenchmarks } from './server/server-load.mjs';
import { storageBenchmarks } from './storage.mjs';
import { verifyBenchmarks } from './login/verify.mjs';
import { finish, machine, printTable, writeResults } from './harness/report.mjs';
import { chartSvg } from './harness/chart.mjs';
import { appendHistory, commitOf, historyEntry, readHistory } from './harness/history.mjs';
import { readFileSync, writeFileSync } from 'node:fs';

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
  server: serverLoadBenchmarks,
};

const args = process.argv.slice(2);
// Too short for the JIT to settle: checks that every benchmark runs, its figures are not representative.
const quick = args.includes('--quick');
if (quick) configure({ rounds: 2, time: 100, warmupTime: 50 });
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const section = args.find((arg) => arg.startsWith('--section='))?.slice('--section='.length);

const log = (message) => console.error(`[bench] ${message}`);

/**
 * Each section runs in a process of its own: what one section leaves behind (heaps of 100,000 keys, compiled code,
 * open storages) would otherwise weigh on the sections after it, and on the side of a comparison that allocates more.
 * Measured: the PKCS#7 rows read 58% after the KV sections in one process and 70% in a process of their own.
 */
function runSection(name) {
  const child = fork(fileURLToPath(import.meta.url), [`--section=${name}`, ...(quick ? ['--quick'] : [])], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let rows;
  child.once('message', (message) => (rows = message));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 && rows ? resolve(rows) : reject(new Error(`the ${name} section failed (exit ${code})`)),
    );
  });
}

if (section) {
  const run = SECTIONS[section];
  if (!run) throw new Error(`unknown section ${section}`);
  const rows = await run(log);
  // Sent whole before the process ends, so a section that leaves handles open cannot hold the run up.
  await new Promise((resolve, reject) => process.send(rows, (error) => (error ? reject(error) : resolve())));
  process.exit(0);
} else {
  const host = machine();
  log(
    `${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}; ${settings.rounds} rounds of ${settings.time} ms per task`,
  );
  // Read before the run writes results.json, bench/history.jsonl and the chart, which would mark every run dirty.
  const measured = commitOf(fileURLToPath(new URL('..', import.meta.url)));
  const started = performance.now();
  const rows = [];
  for (const name of Object.keys(SECTIONS)) {
    if (only && !only.includes(name)) continue;
    rows.push(...(await runSection(name)));
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;

  const finished = finish(rows);
  console.log();
  printTable(finished);
  if (quick) console.log('(--quick: figures from short rounds, not representative; run without it to measure)');
  const output = fileURLToPath(new URL('results.json', import.meta.url));
  writeResults(output, { machine: host, settings: { ...settings, quick }, finished, seconds });
  log(`${seconds} s; results written to ${output}`);
  // A partial run (--only) would chart as a missing point for every goal it skipped: only whole runs are history.
  if (!quick && !only) {
    const history = fileURLToPath(new URL('history.jsonl', import.meta.url));
    appendHistory(history, historyEntry(JSON.parse(readFileSync(output, 'utf8')), measured));
    const chart = fileURLToPath(new URL('../docs/bench-history.svg', import.meta.url));
    writeFileSync(chart, chartSvg(readHistory(history)));
    log(`appended to ${history}; chart redrawn in ${chart}`);
  }
}
