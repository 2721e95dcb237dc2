// Encryption at rest: KV read and write through EncryptedStorage against the same engine over the bare storage, in
// the same rounds, and how fast rewrap re-seals entries after a rotation.
import { randomBytes } from 'node:crypto';
import { EncryptedStorage, KvEngine, MemoryStorage } from 'strongroom';
import { batched, compare, settings, spread } from './harness.mjs';
import { expectOk, fillVersions, keyPath, kvRead, kvWrite, payload } from './fixtures.mjs';

const BATCH = 100;
const REWRAP_ENTRIES = 2_000;

const task = (name, operation) => ({ name, fn: batched(BATCH, operation), batch: BATCH });

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
    if (report.rewrapped !== REWRAP_ENTRIES || !report.done) throw new Error(`rewrap re-sealed ${report.rewrapped} entries`);
    rates.push(REWRAP_ENTRIES / seconds);
  }
  log(`encryption: rewrap of ${REWRAP_ENTRIES} entries, ${settings.rounds} rounds`);
  return spread(rates);
}

export async function encryptionBenchmarks(log) {
  const path = keyPath(0);
  const plain = await kvOver(new MemoryStorage());
  const encrypted = await kvOver(new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) }));
  await expectOk(encrypted.handle({ method: 'GET', path: `data/${path}` }));

  log('encryption: KV read and write through EncryptedStorage against the bare storage');
  const row = (name, result, limitName) => ({ section: 'encryption', name, unit: 'ops/s', result, limitName, goal: { kind: 'ratio-min', value: 0.8 } });
  return [
    row('KV read through EncryptedStorage', await compare(task('encrypted read', kvRead(encrypted, path)), task('plain read', kvRead(plain, path))), 'same read, bare MemoryStorage'),
    row('KV write through EncryptedStorage', await compare(task('encrypted write', kvWrite(encrypted, path)), task('plain write', kvWrite(plain, path))), 'same write, bare MemoryStorage'),
    {
      section: 'encryption',
      name: `rewrap of ${REWRAP_ENTRIES} entries (100-byte values) after a rotation`,
      unit: 'entries/s',
      result: { subject: await rewrapRates(log) },
      goal: { kind: 'info' },
    },
  ];
}
