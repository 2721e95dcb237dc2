// KV engine throughput through handle() against the raw storage work it cannot avoid, and how it scales.
import { MemoryStorage } from 'strongroom';
import { batched, compare } from './harness/harness.mjs';
import { recordedReplay, recordingStorage } from './recorded-calls.mjs';
import {
  expectOk,
  fillVersions,
  FOLDER,
  keyPath,
  kvRead,
  kvWithKeys,
  kvWrite,
  payload,
  storedKeys,
} from './harness/fixtures.mjs';

const BATCH = 100;
const SCALE_KEYS = 10_000;
const SCALE_VERSIONS = 1_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (value) => encoder.encode(JSON.stringify(value));
const decode = (bytes) => JSON.parse(decoder.decode(bytes));

/**
 * The floor of a read in this storage layout: the key's record and the version's blob, each fetched and decoded.
 * A copy of the engine's steady-state bytes in a storage of its own (`raw`, of the same kind), so the engine's state
 * is never touched.
 */
export async function rawStorage(storage, path, raw = new MemoryStorage()) {
  const { metadata, blob } = await storedKeys(storage, path);
  await raw.put(metadata, await storage.get(metadata));
  await raw.put(blob, await storage.get(blob));
  return { raw, metadata, blob };
}

export function rawRead({ raw, metadata, blob }) {
  return async () => {
    decode(await raw.get(metadata));
    decode(await raw.get(blob));
  };
}

/** The floor of a write: fetch and decode the record, encode and store the new data, encode and store the record. */
export function rawWrite({ raw, metadata, blob }) {
  const data = payload(1);
  return async () => {
    const record = decode(await raw.get(metadata));
    await raw.put(blob, encode(data));
    await raw.put(metadata, encode(record));
  };
}

/** Writes that bring a key's head to its steady size: its change history (16 entries) full. */
const SETTLING_WRITES = 32;

/**
 * The read and the write through handle() against their recorded storage calls replayed (recorded-calls.mjs): the
 * outside limit. The goals sit on the cases hardest for the engine, where the replay's JSON work is least and the
 * engine's own work weighs most: the read of a key written once (a head of about 600 bytes), and the steady-state write
 * of a key keeping 1 version (a head of about 1.5 KB, with its change history full). On a key keeping 10 versions
 * (a head of 2.3 KB) both are for information; its read skips the head's decode (the decoded-head cache) that the
 * replay makes.
 */
async function outsideLimitRows() {
  const inner = new MemoryStorage();
  const recorder = recordingStorage(inner);
  const { kv } = await kvWithKeys(3, recorder.storage);
  const [once, oneKept, tenKept] = [0, 1, 2].map(keyPath);
  const replayed = (operation) => recordedReplay(recorder, inner, operation);
  await fillVersions(kv, oneKept, 1);
  await fillVersions(kv, tenKept, 10);
  const cases = [];
  for (const [path, kept, goal] of [
    [oneKept, '1 version kept', 0.4],
    [tenKept, '10 versions kept', undefined],
  ]) {
    const write = kvWrite(kv, path);
    for (let index = 0; index < SETTLING_WRITES; index++) await write();
    cases.push([`KV write via handle() vs its recorded storage calls, ${kept}`, write, await replayed(write), goal]);
  }
  const reads = [
    ['KV read via handle() vs its recorded storage calls, key written once', once, 0.5],
    ['KV read via handle() vs its recorded storage calls, 10 versions kept', tenKept, undefined],
  ];
  for (const [name, path, goal] of reads) {
    const read = kvRead(kv, path);
    cases.push([name, read, await replayed(read), goal]);
  }
  const rows = [];
  // Shown read before write for each key, as the rows above: the writes were recorded first, to settle their keys.
  for (const [name, operation, replay, goal] of [cases[2], cases[0], cases[3], cases[1]]) {
    const result = await compare(task('engine', operation), task('replayed', replay));
    rows.push(throughputRow(name, result, goal, 'the same storage calls replayed + JSON'));
  }
  return rows;
}

const task = (name, operation) => ({ name, fn: batched(BATCH, operation), batch: BATCH });

function throughputRow(name, result, goal, limitName) {
  const kind = goal === undefined ? { kind: 'info' } : { kind: 'ratio-min', value: goal };
  return { section: 'kv', name, unit: 'ops/s', result, limitName, goal: kind };
}

function slowdownRow(name, result, limitName) {
  return { section: 'kv', name, unit: 'ops/s', result, limitName, goal: { kind: 'slowdown-max', value: 1.3 } };
}

export async function kvBenchmarks(log) {
  const rows = [];
  const single = await kvWithKeys(1);
  const path = keyPath(0);
  await fillVersions(single.kv, path, 10);
  const raw = await rawStorage(single.storage, path);

  log('kv: read and write against raw storage');
  rows.push(
    throughputRow(
      'KV read (latest version) via handle()',
      await compare(task('read', kvRead(single.kv, path)), task('raw read', rawRead(raw))),
      0.5,
      'raw 2 gets + JSON decode',
    ),
  );
  rows.push(
    throughputRow(
      'KV write via handle()',
      await compare(task('write', kvWrite(single.kv, path)), task('raw write', rawWrite(raw))),
      0.35,
      'raw get + 2 puts + JSON',
    ),
  );

  log('kv: read and write against their recorded storage calls');
  rows.push(...(await outsideLimitRows()));

  log(`kv: scaling with ${SCALE_KEYS} keys`);
  const many = await kvWithKeys(SCALE_KEYS);
  const middle = keyPath(SCALE_KEYS / 2);
  await fillVersions(many.kv, middle, 10);
  rows.push(
    slowdownRow(
      `KV read, ${SCALE_KEYS} keys vs 1 key`,
      await compare(task('read 10k', kvRead(many.kv, middle)), task('read 1', kvRead(single.kv, path))),
      'same read, 1 key',
    ),
  );
  rows.push(
    slowdownRow(
      `KV write, ${SCALE_KEYS} keys vs 1 key`,
      await compare(task('write 10k', kvWrite(many.kv, middle)), task('write 1', kvWrite(single.kv, path))),
      'same write, 1 key',
    ),
  );

  log(`kv: LIST of a folder of ${SCALE_KEYS} keys`);
  const folder = `kv/metadata/${FOLDER}`;
  const list = async () => {
    const response = await expectOk(many.kv.handle({ method: 'LIST', path: `metadata/${FOLDER}` }));
    if (response.body.data.keys.length !== SCALE_KEYS) throw new Error('LIST lost keys');
  };
  const rawList = async () => {
    if ((await many.storage.list(folder)).length !== SCALE_KEYS) throw new Error('storage lost keys');
  };
  rows.push({
    section: 'kv',
    name: `KV LIST of a folder of ${SCALE_KEYS} keys`,
    unit: 'lists/s',
    result: await compare({ name: 'list', fn: list }, { name: 'raw list', fn: rawList }),
    limitName: 'raw storage.list of the folder',
    goal: { kind: 'info' },
  });

  log(`kv: scaling with ${SCALE_VERSIONS} versions kept`);
  const oneVersion = await kvWithKeys(1);
  await fillVersions(oneVersion.kv, path, 1);
  // Both keys with their change history full, as the deep key's thousand writes leave it: a key written only twice
  // has a head of 0.7 KB against 1.5 KB, and the read row timed that difference rather than the versions kept.
  const settle = kvWrite(oneVersion.kv, path);
  for (let index = 0; index < SETTLING_WRITES; index++) await settle();
  const deep = await kvWithKeys(1);
  await fillVersions(deep.kv, path, SCALE_VERSIONS);
  rows.push(
    slowdownRow(
      `KV read, ${SCALE_VERSIONS} versions vs 1 kept`,
      await compare(task('read deep', kvRead(deep.kv, path)), task('read shallow', kvRead(oneVersion.kv, path))),
      'same read, 1 version kept',
    ),
  );
  rows.push(
    slowdownRow(
      `KV write, ${SCALE_VERSIONS} versions vs 1 kept`,
      await compare(task('write deep', kvWrite(deep.kv, path)), task('write shallow', kvWrite(oneVersion.kv, path))),
      'same write, 1 version kept',
    ),
  );
  return rows;
}
