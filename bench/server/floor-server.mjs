// The floor of the server-under-load rows, run as a process of its own as the real server is: node:http doing exactly
// the storage calls the real server makes for a KV read or write (floor-replay.mjs), over the same kind of storage
// (SQLite behind EncryptedStorage, as `npm start` keeps its state, or PostgreSQL behind it), with the same JSON in and
// out; no router, no token check, no ACL, no audit, no log. The calls are recorded from the real server, started here
// over this very storage and closed before the floor serves, so the floor cannot drift from what the server does.
//   node bench/server/floor-server.mjs DATA_DIR KEYS ROOT_TOKEN [POSTGRES_URL TABLE]   (answers its port once ready)
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { EncryptedStorage, StaticRootKey } from 'strongroom';
import { PostgresStorage } from 'strongroom/postgres';
import { createServer } from 'strongroom/server';
import { SqliteStorage } from 'strongroom/sqlite';
import { floorAnswer, floorHttpServer, floorTemplates, recordServer } from './floor-replay.mjs';
import { recordingStorage } from '../recorded-calls.mjs';

const [directory, keyCount, rootToken, postgresUrl, table] = process.argv.slice(2);
const storage = new EncryptedStorage({
  storage: postgresUrl
    ? new PostgresStorage({ connectionString: postgresUrl, table })
    : new SqliteStorage({ path: join(directory, 'floor.db') }),
  key: StaticRootKey.fromBase64(randomBytes(32).toString('base64')),
});

// The real server over this storage writes the keys (so the records and blobs are the real ones) and shows its calls.
const recorder = recordingStorage(storage);
const real = createServer({ storage: recorder.storage, rootToken, log: () => {} });
const recordings = await recordServer(await real.listen({ port: 0 }), rootToken, recorder, Number(keyCount));
await real.close();

const floor = floorHttpServer(floorAnswer(storage, floorTemplates(recordings), recordings.blobs));
floor.listen(0, '127.0.0.1', () => console.log(floor.address().port));
