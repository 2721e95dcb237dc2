// Engines, payloads and operations shared by the KV, memory, concurrency and login benchmarks and the profiler.
import { randomBytes } from 'node:crypto';
import { KvEngine, MemoryStorage } from 'strongroom';

export const FOLDER = 'bench/';
const PREFIX = 'kv/';

/** A secret whose JSON is exactly 100 bytes: the size of a typical credential. */
export function payload(index = 0) {
  const data = { user: `svc-${String(index).padStart(6, '0')}`, password: '', port: 5432 };
  const fill = 100 - JSON.stringify(data).length;
  data.password = randomBytes(fill).toString('base64url').slice(0, fill);
  return data;
}

export function keyPath(index) {
  return `${FOLDER}k${index}`;
}

/** A KvEngine over `storage` (a fresh MemoryStorage by default), with `keys` keys written once each under FOLDER. */
export async function kvWithKeys(keys, storage = new MemoryStorage()) {
  const kv = new KvEngine({ storage });
  for (let index = 0; index < keys; index++)
    await expectOk(kv.handle({ method: 'POST', path: `data/${keyPath(index)}`, body: { data: payload(index) } }));
  return { storage, kv };
}

/** Sets the key's max_versions and writes it until it holds that many versions (the steady state of later writes). */
export async function fillVersions(kv, path, maxVersions) {
  await expectOk(kv.handle({ method: 'POST', path: `metadata/${path}`, body: { max_versions: maxVersions } }));
  for (let version = 0; version < maxVersions + 1; version++) {
    await expectOk(kv.handle({ method: 'POST', path: `data/${path}`, body: { data: payload(version) } }));
  }
}

/** A read of the key's latest version through handle(), checked. */
export function kvRead(kv, path) {
  return () => expectOk(kv.handle({ method: 'GET', path: `data/${path}` }));
}

/** A write of a fresh 100-byte version through handle(), checked. */
export function kvWrite(kv, path) {
  const data = payload(1);
  return () => expectOk(kv.handle({ method: 'POST', path: `data/${path}`, body: { data } }));
}

export async function expectOk(pending) {
  const response = await pending;
  if (response.status >= 300) throw new Error(`unexpected ${response.status}: ${JSON.stringify(response.body)}`);
  return response;
}

/** Where the engine keeps a key's record and its current version's blob (see src/kv/documents/storage-layout.ts). */
export async function storedKeys(storage, path) {
  const metadata = `${PREFIX}metadata/${path}`;
  const record = JSON.parse(new TextDecoder().decode(await storage.get(metadata)));
  const head = record.versions.find((entry) => entry.version === record.current_version);
  return { metadata, blob: `${PREFIX}versions/${head.blob.slice(0, 2)}/${head.blob}`, record };
}
