// KV engine throughput through handle() against the raw storage work it cannot avoid, and how it scales.
import { MemoryStorage } from 'strongroom';
import { batched, compare } from './harness.mjs';
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
} from './fixtures.mjs';

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

const task = (name, operation) => ({ name, fn: batched(BATCH, operation), batch: BATCH });

function throughputRow(name, result, goal, limitName) {
  return { section: 'kv', name, unit: 'ops/s', result, limitName, goal: { kind: 'ratio-min', value: goal } };
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
