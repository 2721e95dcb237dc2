// Encryption at rest: KV read and write through EncryptedStorage against the same engine over the bare storage, in
// the same rounds (over MemoryStorage for the goals, over SQLite for the record), and how fast rewrap re-seals entries
// after a rotation.
import { createCipheriv, createSecretKey, randomBytes, randomFillSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EncryptedStorage, KvEngine, MemoryStorage } from 'strongroom';
import { SqliteStorage } from 'strongroom/sqlite';
import { batched, compare, interleaved, pairedResult, settings, spread } from './harness/harness.mjs';
import { expectOk, fillVersions, keyPath, kvRead, kvWrite, payload, storedKeys } from './harness/fixtures.mjs';

const BATCH = 100;
const REWRAP_ENTRIES = 2_000;

const task = (name, operation, batch = BATCH) => ({ name, fn: batched(batch, operation), batch });

/** The first five bytes of a sealed value, as the barrier writes them: format version 1, key term 1 (big-endian). */
const HEADER = [1, 0, 0, 0, 1];
/** AES-GCM's nonce and tag, which follow the header and the ciphertext in a sealed value. */
const NONCE = 12;
const TAG = 16;
/** What sealing adds to a value's length. */
const OVERHEAD = HEADER.length + NONCE + TAG;

async function kvOver(storage) {
  const kv = new KvEngine({ storage });
  await fillVersions(kv, keyPath(0), 10);
  return kv;
}

/** Entries re-sealed per second by one rewrap of REWRAP_ENTRIES entries of the previous term, per round. */
async function rewrapRates(log) {
  const rates = [];
  for (let round = 0; round < settings.rounds; round++) {
    const storage = new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) });
    for (let index = 0; index < REWRAP_ENTRIES; index++) {
      await storage.put(`kv/versions/${index}`, new TextEncoder().encode(JSON.stringify(payload(index))));
    }
    await storage.rotate();
    const started = performance.now();
    const report = await storage.rewrap({ batchSize: 100 });
    const seconds = (performance.now() - started) / 1000;
    if (report.rewrapped !== REWRAP_ENTRIES || !report.done)
      throw new Error(`rewrap re-sealed ${report.rewrapped} entries`);
    rates.push(REWRAP_ENTRIES / seconds);
  }
  log(`encryption: rewrap of ${REWRAP_ENTRIES} entries, ${settings.rounds} rounds`);
  return spread(rates);
}

/**
 * The least two AES-256-GCM seals can cost, with node:crypto as any user has it: a cipher per value under a KeyObject,
 * a nonce from a pre-drawn pool, additional data, the ciphertext and the tag; nothing assembled, copied or stored.
 * Given `out` (and the value's own additional data), it also assembles the sealed value there as the barrier stores
 * it: header, nonce, ciphertext, tag.
 */
export function bareSealer(storageKey, key = createSecretKey(randomBytes(32))) {
  const nonces = new Uint8Array(NONCE * 1024);
  let position = nonces.length;
  const fixed = new Uint8Array([...HEADER, ...new TextEncoder().encode(storageKey)]);
  return (plaintext, out, additional = fixed) => {
    if (position === nonces.length) position = (randomFillSync(nonces), 0);
    const nonce = nonces.subarray(position, (position += NONCE));
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(additional);
    const body = cipher.update(plaintext);
    cipher.final();
    const tag = cipher.getAuthTag();
    if (out) {
      out.set(additional.subarray(0, HEADER.length));
      out.set(nonce, HEADER.length);
      out.set(body, HEADER.length + NONCE);
      out.set(tag, out.length - TAG);
    }
    return tag;
  };
}

/** The keys and stored values an encrypted write of `path` seals: the version's data and the key's record. */
async function sealedByAWrite(plainStorage, path) {
  const { metadata, blob } = await storedKeys(plainStorage, path);
  return { metadata, blob, values: [await plainStorage.get(blob), await plainStorage.get(metadata)] };
}

/**
 * The plain KV write plus two bare seals of values the sizes of those an encrypted write seals (the version's data
 * and the key's head record, read back from the plain storage): the least an encrypted write can cost, whatever the
 * barrier around the seals does.
 */
async function plainWriteWithSeals(plainStorage, plain, path) {
  const { metadata, values } = await sealedByAWrite(plainStorage, path);
  const sealBare = bareSealer(metadata);
  const write = kvWrite(plain, path);
  return async () => {
    for (const value of values) sealBare(value);
    await write();
  };
}

/**
 * The plain write with two bare seals plus every step the barrier's rules add to a KV write, written out with nothing
 * else: the ceiling of the goal row (docs/performance.md says which rule asks for each step).
 * - The read of the key's record: the stored sealed bytes recognised as the ones last written (one comparison, cheaper
 *   than opening them) and the plaintext copied into the array the storage answered, which the reader then owns.
 * - The commit's condition on the record, compared by plaintext: ciphertexts differ at every seal.
 * - A snapshot of both values (a caller may reuse its arrays, and the cache must keep what was sealed).
 * - Each value sealed whole into an array of the barrier's own, under additional data naming its storage key.
 * - The operations handed to the storage, carrying the sealed values; both values remembered, the deleted one forgotten.
 * - The keyring read back and compared once the write has landed (a writer that missed a rotation must re-seal).
 */
export async function plainWriteWithBarrierSteps(plainStorage, plain, path) {
  const { metadata, blob, values } = await sealedByAWrite(plainStorage, path);
  const keys = [blob, metadata];
  const record = values[1];
  const storedRecord = randomBytes(OVERHEAD + record.length);
  const rememberedRecord = new Uint8Array(storedRecord);
  const answered = new Uint8Array(storedRecord.length);
  const expected = new Uint8Array(record);
  const sealBare = bareSealer(metadata);
  const encoder = new TextEncoder();
  const additional = new Uint8Array(256);
  additional.set(HEADER);
  const remembered = new Map();
  const keyring = new MemoryStorage();
  const keyringRecord = randomBytes(250);
  await keyring.put('.encryption/keyring', keyringRecord);
  const write = kvWrite(plain, path);
  return async () => {
    if (Buffer.compare(storedRecord, rememberedRecord) !== 0) throw new Error('record changed');
    answered.set(record);
    answered.fill(0, record.length);
    if (Buffer.compare(expected, record) !== 0) throw new Error('condition failed');
    const snapshots = new Uint8Array(values[0].length + values[1].length);
    const plaintexts = [];
    let offset = 0;
    for (const value of values) {
      snapshots.set(value, offset);
      plaintexts.push(new Uint8Array(snapshots.buffer, offset, value.length));
      offset += value.length;
    }
    const memory = new ArrayBuffer(2 * OVERHEAD + offset);
    const sealed = [];
    offset = 0;
    for (let index = 0; index < 2; index++) {
      const out = new Uint8Array(memory, offset, OVERHEAD + plaintexts[index].length);
      offset += out.length;
      const { written } = encoder.encodeInto(keys[index], additional.subarray(HEADER.length));
      sealBare(plaintexts[index], out, additional.subarray(0, HEADER.length + written));
      sealed.push(out);
    }
    const operations = [
      { type: 'put', key: blob, value: sealed[0], expected: null },
      { type: 'put', key: metadata, value: sealed[1], expected: storedRecord },
      { type: 'delete', key: 'kv/versions/gone' },
    ];
    await write();
    remembered.delete(operations[2].key);
    for (let index = 0; index < 2; index++)
      remembered.set(keys[index], { sealed: operations[index].value, plaintext: plaintexts[index] });
    if (Buffer.compare(await keyring.get('.encryption/keyring'), keyringRecord) !== 0)
      throw new Error('keyring changed');
  };
}

/**
 * The same write over SQLite, as the server stores by default (`synchronous: 'full'`), with and without the barrier:
 * what encryption costs where a write also reaches a disk. For the record; the goal rows above isolate the barrier.
 */
async function overSqlite(path, log) {
  const directory = mkdtempSync(join(tmpdir(), 'strongroom-bench-encryption-'));
  const stores = [
    new SqliteStorage({ path: join(directory, 'plain.db') }),
    new SqliteStorage({ path: join(directory, 'sealed.db') }),
  ];
  try {
    const plain = await kvOver(stores[0]);
    const encrypted = await kvOver(new EncryptedStorage({ storage: stores[1], key: randomBytes(32) }));
    log('encryption: KV write through EncryptedStorage over SQLite against bare SQLite');
    // Writes that reach a disk take milliseconds: small batches keep the rounds' sample counts up.
    return await compare(
      task('encrypted write', kvWrite(encrypted, path), 10),
      task('plain write', kvWrite(plain, path), 10),
    );
  } finally {
    await Promise.all(stores.map((storage) => storage.close()));
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function encryptionBenchmarks(log) {
  const path = keyPath(0);
  const plainStorage = new MemoryStorage();
  const plain = await kvOver(plainStorage);
  const encrypted = await kvOver(new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) }));
  await expectOk(encrypted.handle({ method: 'GET', path: `data/${path}` }));
  const withSeals = await plainWriteWithSeals(plainStorage, plain, path);
  const withSteps = await plainWriteWithBarrierSteps(plainStorage, plain, path);

  log('encryption: KV read and write through EncryptedStorage against the bare storage');
  const row = (name, result, limitName) => ({
    section: 'encryption',
    name,
    unit: 'ops/s',
    result,
    limitName,
    goal: { kind: 'ratio-min', value: 0.8 },
  });
  const read = row(
    'KV read through EncryptedStorage',
    await compare(task('encrypted read', kvRead(encrypted, path)), task('plain read', kvRead(plain, path))),
    'same read, bare MemoryStorage',
  );
  // For information since issue 31: two seals per write cap it well below 80% (the ceiling row below); the goal is
  // the row after that, what the barrier adds to its two seals.
  const write = {
    ...row(
      'KV write through EncryptedStorage',
      await compare(task('encrypted write', kvWrite(encrypted, path)), task('plain write', kvWrite(plain, path))),
      'same write, bare MemoryStorage',
    ),
    goal: { kind: 'info' },
  };
  const sealsCeiling = {
    ...row(
      "KV write + 2 bare AES-256-GCM seals (node:crypto), no barrier: the seals' ceiling on the row above",
      await compare(task('plain write + 2 bare seals', withSeals), task('plain write', kvWrite(plain, path))),
      'same write, no seals',
    ),
    goal: { kind: 'info' },
  };
  // The goal row, its ceiling and the distance between them, from the same rounds: six times the usual number, since
  // a garbage collection landing in one task's turn moves that round's ratio by several points, and at fifteen rounds
  // the ceiling's median still moved from 83% to 91% between runs of the same code (docs/performance.md).
  const [sealedWrites, withSealsWrites, withStepsWrites] = await interleaved(
    [
      task('encrypted write', kvWrite(encrypted, path)),
      task('plain write + 2 bare seals', withSeals),
      task('plain write + seals + barrier steps', withSteps),
    ],
    { rounds: settings.rounds * 6 },
  );
  return [
    read,
    write,
    sealsCeiling,
    {
      ...row(
        'KV write through EncryptedStorage against the plain write + 2 bare seals: what the barrier adds to its seals',
        pairedResult(sealedWrites, withSealsWrites),
        'plain write + 2 bare seals',
      ),
      goal: { kind: 'ratio-min', value: 0.9 },
    },
    {
      ...row(
        "plain write + 2 bare seals + the steps the barrier's rules add (record recognised and copied, plaintext condition, snapshots, whole sealed values, remembering, keyring read back): the ceiling of the row above",
        pairedResult(withStepsWrites, withSealsWrites),
        'plain write + 2 bare seals',
      ),
      goal: { kind: 'info' },
    },
    {
      ...row(
        'KV write through EncryptedStorage against that ceiling: what the barrier costs beyond the steps its rules require',
        pairedResult(sealedWrites, withStepsWrites),
        'plain write + seals + barrier steps',
      ),
      goal: { kind: 'info' },
    },
    {
      ...row(
        "KV write through EncryptedStorage over SQLite (synchronous full, the server's default)",
        await overSqlite(path, log),
        'same write, bare SQLite',
      ),
      goal: { kind: 'info' },
    },
    {
      section: 'encryption',
      name: `rewrap of ${REWRAP_ENTRIES} entries (100-byte values) after a rotation`,
      unit: 'entries/s',
      result: { subject: await rewrapRates(log) },
      goal: { kind: 'info' },
    },
  ];
}
