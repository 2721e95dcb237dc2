// The KV engine inside your own service: no HTTP and no server, typed methods over any Storage.
import { KvEngine, MemoryStorage } from 'strongroom';

const kv = new KvEngine({ storage: new MemoryStorage() });
await kv.write('app/db', { password: 'correct horse' });
await kv.write('app/db', { password: 'battery staple' }, { cas: 1 });
const latest = await kv.read('app/db');
const first = await kv.read('app/db', { version: 1 });
console.log(JSON.stringify({ version: latest.metadata.version, latest: latest.data, first: first.data }));
