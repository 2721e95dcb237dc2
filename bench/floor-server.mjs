// The floor of the server-under-load rows, run as a process of its own as the real server is: node:http doing only
// the storage calls a KV read or write makes, over the same kind of storage as the server's (SQLite behind
// EncryptedStorage, as `npm start` keeps its state, or PostgreSQL behind it), with the same JSON in and out; no
// router, no token, no ACL, no audit, no log.
//   node bench/floor-server.mjs DATA_DIR KEYS [POSTGRES_URL TABLE]   (answers its port on stdout once ready)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import { EncryptedStorage, KvEngine, StaticRootKey } from 'strongroom';
import { PostgresStorage } from 'strongroom/postgres';
import { SqliteStorage } from 'strongroom/sqlite';

const [directory, keyCount, postgresUrl, table] = process.argv.slice(2);
const PREFIX = 'secret/';
const storage = new EncryptedStorage({
  storage: postgresUrl
    ? new PostgresStorage({ connectionString: postgresUrl, table })
    : new SqliteStorage({ path: join(directory, 'floor.db') }),
  key: StaticRootKey.fromBase64(randomBytes(32).toString('base64')),
});
const decode = (bytes) => JSON.parse(new TextDecoder().decode(bytes));
const encode = (value) => new TextEncoder().encode(JSON.stringify(value));

// The same keys the real server serves, written by the engine so the records and blobs are the real ones.
const kv = new KvEngine({ storage, storagePrefix: PREFIX });
for (let n = 0; n < Number(keyCount); n++) await kv.write(`load/${n}`, { password: 'x'.repeat(100), n });
const blobKey = (record) => {
  const head = record.versions.find((entry) => entry.version === record.current_version);
  return `${PREFIX}versions/${head.blob.slice(0, 2)}/${head.blob}`;
};

const previous = new Map();
async function answer(req, body) {
  const path = req.url.replace(/^\/v1\/secret\/data\//, '');
  const metadata = `${PREFIX}metadata/${path}`;
  const record = decode(await storage.get(metadata));
  if (req.method === 'GET') {
    const data = decode(await storage.get(blobKey(record)));
    return { request_id: '', lease_id: '', renewable: false, lease_duration: 0, data: { data, metadata: {} } };
  }
  // A write: the new data under a key of its own, and the record, in one commit that drops the data it replaces.
  const blob = `${PREFIX}versions/bench/${randomBytes(12).toString('hex')}`;
  const operations = [
    { type: 'put', key: blob, value: encode(JSON.parse(body).data), expected: null },
    { type: 'put', key: metadata, value: encode(record) },
  ];
  const last = previous.get(path);
  if (last) operations.push({ type: 'delete', key: last });
  await storage.commit(operations);
  previous.set(path, blob);
  return { request_id: '', data: { version: record.current_version } };
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    answer(req, body).then(
      (value) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(value));
      },
      (error) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ errors: [String(error)] }));
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
