// A process that rewraps the SQLite database named by its environment a batch at a time, telling its parent after each
// batch, until it is done or killed.
import { EncryptedStorage, StaticRootKey } from '../../src/index.js';
import { SqliteStorage } from '../../src/sqlite.js';

const storage = new EncryptedStorage({
  storage: new SqliteStorage({ path: process.env.DATABASE! }),
  key: StaticRootKey.fromBase64(process.env.ROOT_KEY!),
});
for (;;) {
  const report = await storage.rewrap({ batchSize: 10, maxBatches: 1 });
  process.send!({ rewrapped: report.rewrapped, done: report.done });
  if (report.done) break;
}
