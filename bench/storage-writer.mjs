// One process of the multi-process PostgreSQL benchmark: its own KvEngine writing distinct keys from STREAMS
// concurrent writers for the given milliseconds, then prints how many writes were acknowledged.
import { KvEngine } from 'strongroom';
import { PostgresStorage } from 'strongroom/postgres';
import { expectOk, payload } from './fixtures.mjs';

const [url, table, id, milliseconds] = process.argv.slice(2);
const STREAMS = 4;
const storage = new PostgresStorage({ connectionString: url, table, poolSize: STREAMS });
const kv = new KvEngine({ storage });
const data = payload(Number(id));
// Warm up: connections open, statements prepared and the code compiled before the clock starts, so that a short
// window measures the steady state rather than a cold process.
await Promise.all(
  Array.from({ length: STREAMS }, async (_, stream) => {
    for (let index = 0; index < 100; index++)
      await expectOk(kv.handle({ method: 'POST', path: `data/p${id}/warm${stream}/k${index % 10}`, body: { data } }));
  }),
);
process.send?.('ready');
await new Promise((resolve) => process.once('message', resolve));
const deadline = performance.now() + Number(milliseconds);
let writes = 0;
await Promise.all(
  Array.from({ length: STREAMS }, async (_, stream) => {
    for (let index = 0; performance.now() < deadline; index++) {
      await expectOk(kv.handle({ method: 'POST', path: `data/p${id}/s${stream}/k${index % 50}`, body: { data } }));
      writes++;
    }
  }),
);
console.log(JSON.stringify({ writes }));
await storage.close();
