// The persistent adapters: KV reads and writes over SQLite and PostgreSQL against the raw adapter calls that move
// the same bytes, and the write throughput of four processes against one over one PostgreSQL.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KvEngine } from 'strongroom';
import { PostgresStorage } from 'strongroom/postgres';
import { SqliteStorage } from 'strongroom/sqlite';
import { batched, compare, median, pairedResult, settings, spread } from './harness/harness.mjs';
import { fillVersions, keyPath, kvRead, kvWrite, payload } from './harness/fixtures.mjs';
import { rawRead, rawStorage } from './kv.mjs';
import { postgresHarness } from './harness/postgres.mjs';

const BATCH = 20;
const task = (name, operation) => ({ name, fn: batched(BATCH, operation), batch: BATCH });
const goalOf = (value) => (value === undefined ? { kind: 'info' } : { kind: 'ratio-min', value });
const row = (name, result, goal, limitName) => ({
  section: 'storage',
  name,
  unit: 'ops/s',
  result,
  limitName,
  goal: goalOf(goal),
});

/**
 * The floor of a durable write in this layout: fetch and decode the record, then one commit that stores the new data
 * under a key of its own (a version's data is never overwritten in place), rewrites the record and drops the data the
 * record stops referencing. Overwriting one fixed key instead would skip the cost of inserting a row, which is most of
 * what a synced commit costs.
 */
function rawDurableWrite({ raw, metadata }) {
  const encoder = new TextEncoder();
  let previous;
  return async () => {
    const record = JSON.parse(new TextDecoder().decode(await raw.get(metadata)));
    const blob = `bench-versions/${randomBytes(12).toString('hex')}`;
    const operations = [
      { type: 'put', key: blob, value: encoder.encode(JSON.stringify(payload(1))), expected: null },
      { type: 'put', key: metadata, value: encoder.encode(JSON.stringify(record)) },
    ];
    if (previous) operations.push({ type: 'delete', key: previous });
    await raw.commit(operations);
    previous = blob;
  };
}

/** KV read and write through handle() against raw get/put of the same bytes in a second storage of the same kind. */
async function engineVersusRaw(name, storage, raw, goal, log) {
  const kv = new KvEngine({ storage });
  const path = keyPath(0);
  await fillVersions(kv, path, 10);
  const copy = await rawStorage(storage, path, raw);
  log(`storage: ${name} read and write against raw adapter calls`);
  return [
    row(
      `KV read over ${name} via handle()`,
      await compare(task('read', kvRead(kv, path)), task('raw read', rawRead(copy))),
      goal,
      `raw ${name} 2 gets + JSON decode`,
    ),
    row(
      `KV write over ${name} via handle()`,
      await compare(task('write', kvWrite(kv, path)), task('raw write', rawDurableWrite(copy))),
      goal,
      `raw ${name} get + 1 commit: new data key, record, old data dropped`,
    ),
  ];
}

/** The machine's CPU time so far, idle and in all (Linux /proc/stat, in clock ticks), or undefined elsewhere. */
function machineCpu() {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: ticks[3] + (ticks[4] ?? 0), total: ticks.reduce((sum, value) => sum + value, 0) };
  } catch {
    return undefined;
  }
}

/**
 * Total acknowledged KV writes per second of `processes` OS processes on distinct keys, one measurement, and the share
 * of the machine's CPU time that was busy meanwhile (server, writers and everything else), when the system tells.
 */
async function processesWriting(url, processes, milliseconds, mode = 'kv') {
  const script = fileURLToPath(new URL('storage-writer.mjs', import.meta.url));
  const children = Array.from({ length: processes }, (_, id) =>
    fork(script, [url, 'bench_processes', String(id), String(milliseconds), mode], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    }),
  );
  const outputs = children.map((child) => {
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    return new Promise((resolve, reject) =>
      child.once('exit', (code) =>
        code === 0 ? resolve(JSON.parse(text).writes) : reject(new Error(`writer exited ${code}`)),
      ),
    );
  });
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('message', resolve))));
  const before = machineCpu();
  let after;
  const sampled = setTimeout(() => (after = machineCpu()), milliseconds);
  for (const child of children) child.send('go');
  const writes = (await Promise.all(outputs)).reduce((sum, count) => sum + count, 0);
  clearTimeout(sampled);
  const busy =
    before && after && after.total > before.total
      ? 1 - (after.idle - before.idle) / (after.total - before.total)
      : undefined;
  return { rate: (writes * 1000) / milliseconds, busy };
}

/**
 * What 4 processes write per second against what the machine's CPU allows them, round by round: 1 process's rate
 * over the share of the machine busy while it wrote is the rate at which the whole machine would write at the same
 * cost per write.
 */
const againstCeiling = (four, one) =>
  pairedResult(
    four.map((run) => run.rate),
    one.map((run) => run.rate / run.busy),
  );

/**
 * 4 processes against 1, in alternating rounds, through the engine and (with `raw`) as the bare storage calls of the
 * same writes: the raw rounds show how far the storage, its driver and the machine let 4 processes come to the CPU
 * ceiling with no engine at all.
 */
async function scaling(url, label, goal, log, { raw = false } = {}) {
  log(`storage: 4 processes vs 1 over one ${label}, distinct keys${raw ? ', and their storage calls alone' : ''}`);
  const runs = { kv: { four: [], one: [] }, raw: { four: [], one: [] } };
  const milliseconds = Math.max(settings.time * 3, 300);
  for (let round = 0; round < settings.rounds; round++) {
    for (const mode of raw ? ['kv', 'raw'] : ['kv']) {
      const { four, one } = runs[mode];
      // Alternating which goes first, like the in-process comparisons.
      if (round % 2) one.push(await processesWriting(url, 1, milliseconds, mode));
      four.push(await processesWriting(url, 4, milliseconds, mode));
      if (!(round % 2)) one.push(await processesWriting(url, 1, milliseconds, mode));
    }
  }
  const { four, one } = runs.kv;
  const rows = [
    {
      section: 'storage',
      name: `KV writes, 4 processes vs 1 over one ${label} (distinct keys)`,
      unit: 'writes/s',
      result: pairedResult(
        four.map((run) => run.rate),
        one.map((run) => run.rate),
      ),
      limitName: '1 process, same load',
      goal: { kind: 'info' },
    },
  ];
  // The server runs on the same cores: when one process already keeps them busy, more processes can only share them.
  const busy = one.map((run) => run.busy);
  if (!busy.every((share) => share > 0)) return rows;
  const ceiling = spread(busy.map((share) => 1 / share));
  rows.push(
    {
      section: 'storage',
      name: `ceiling of the row above on this machine: all its CPU time / the CPU time busy while 1 process writes`,
      unit: '×',
      result: { subject: ceiling },
      measuredText: `${ceiling.median.toFixed(2)}× (1 process kept ${Math.round(median(busy) * 100)}% of ${cpus().length} cores busy)`,
      goal: { kind: 'info' },
    },
    {
      section: 'storage',
      name: `KV writes, 4 processes over one ${label}, against the CPU ceiling (the two rows above, round by round)`,
      unit: 'writes/s',
      result: againstCeiling(four, one),
      limitName: "1 process's rate scaled to the whole machine",
      goal: goalOf(goal),
    },
  );
  if (raw && runs.raw.one.every((run) => run.busy > 0)) {
    rows.push({
      section: 'storage',
      name: `the storage calls of those writes alone (2 gets, 1 commit; no engine), 4 processes over one ${label}, against their CPU ceiling`,
      unit: 'writes/s',
      result: againstCeiling(runs.raw.four, runs.raw.one),
      limitName: "1 process's rate scaled to the whole machine",
      goal: { kind: 'info' },
    });
  }
  return rows;
}

export async function storageBenchmarks(log) {
  const directory = mkdtempSync(join(tmpdir(), 'strongroom-bench-storage-'));
  const stores = [];
  const open = (storage) => (stores.push(storage), storage);
  try {
    const rows = await engineVersusRaw(
      'SQLite',
      open(new SqliteStorage({ path: join(directory, 'kv.db') })),
      open(new SqliteStorage({ path: join(directory, 'raw.db') })),
      0.7,
      log,
    );
    const { postgresAvailable, startPostgres } = await postgresHarness(directory);
    if (!postgresAvailable()) return rows;
    // The goals are set on a server that flushes every commit to disk, as a production one does; the same rows on a
    // server that does not (how the tests run it) are shown for information: there the engine's own CPU time weighs more.
    for (const durable of [true, false]) {
      const server = await startPostgres({ durable });
      const label = durable ? 'PostgreSQL' : 'PostgreSQL with fsync off';
      try {
        const pg = (table) => open(new PostgresStorage({ connectionString: server.url, table }));
        rows.push(...(await engineVersusRaw(label, pg('bench_kv'), pg('bench_raw'), durable ? 0.8 : undefined, log)));
        rows.push(...(await scaling(server.url, label, durable ? 0.9 : undefined, log, { raw: durable })));
      } finally {
        await Promise.all(stores.splice(0).map((storage) => storage.close()));
        await server.stop();
      }
    }
    return rows;
  } finally {
    await Promise.all(stores.map((storage) => storage.close()));
    rmSync(directory, { recursive: true, force: true });
  }
}
