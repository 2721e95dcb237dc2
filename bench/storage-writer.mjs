// One process of the multi-process PostgreSQL benchmark: STREAMS concurrent writers on distinct keys for the given
// milliseconds, then prints how many writes were acknowledged. Mode `kv` writes through its own KvEngine; mode `raw`
// makes only the storage calls such a write makes (the engine's config and the key's record read together, then one
// commit: the new data, the record against the bytes read, the previous data dropped), with no engine around them.
import { randomBytes } from 'node:crypto';
import { KvEngine } from 'strongroom';
import { PostgresStorage } from 'strongroom/postgres';
import { expectOk, payload } from './harness/fixtures.mjs';

const [url, table, id, milliseconds, mode = 'kv'] = process.argv.slice(2);
const STREAMS = 4;
const KEYS = 50;
const storage = new PostgresStorage({ connectionString: url, table, poolSize: STREAMS });
const kv = new KvEngine({ storage });
const data = payload(Number(id));
const encoder = new TextEncoder();

const kvWrite = (stream, index) =>
  expectOk(kv.handle({ method: 'POST', path: `data/p${id}/s${stream}/k${index % KEYS}`, body: { data } }));

/** The raw writes of one stream, over records the size of the engine's: each key's record is a head it wrote. */
async function rawWriter(stream) {
  const head = await storage.get(`kv/metadata/p${id}/warm${stream}/k0`);
  const previous = new Map();
  return async (index) => {
    const record = `raw/p${id}/s${stream}/k${index % KEYS}`;
    const [, stored] = await Promise.all([storage.get('kv/config'), storage.get(record)]);
    const value = encoder.encode(JSON.stringify(JSON.parse(new TextDecoder().decode(stored ?? head))));
    const blob = `raw-versions/${randomBytes(12).toString('hex')}`;
    const operations = [
      { type: 'put', key: blob, value: encoder.encode(JSON.stringify(data)), expected: null },
      { type: 'put', key: record, value, expected: stored ?? null },
    ];
    if (previous.has(record)) operations.push({ type: 'delete', key: previous.get(record) });
    if (!(await storage.commit(operations))) throw new Error(`the raw commit of ${record} was refused`);
    previous.set(record, blob);
  };
}

// Warm up: connections open, statements prepared and the code compiled before the clock starts, so that a short
// window measures the steady state rather than a cold process.
const writers = await Promise.all(
  Array.from({ length: STREAMS }, async (_, stream) => {
    for (let index = 0; index < 100; index++)
      await expectOk(kv.handle({ method: 'POST', path: `data/p${id}/warm${stream}/k${index % 10}`, body: { data } }));
    if (mode === 'kv') return (index) => kvWrite(stream, index);
    const write = await rawWriter(stream);
    for (let index = 0; index < 100; index++) await write(index);
    return write;
  }),
);
process.send?.('ready');
await new Promise((resolve) => process.once('message', resolve));
const deadline = performance.now() + Number(milliseconds);
let writes = 0;
await Promise.all(
  writers.map(async (write) => {
    for (let index = 0; performance.now() < deadline; index++) {
      await write(index);
      writes++;
    }
  }),
);
console.log(JSON.stringify({ writes }));
await storage.close();
