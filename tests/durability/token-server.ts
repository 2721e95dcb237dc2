// One server process of the token durability tests: createServer over the SQLite file named by its environment, with
// the root token and the per-parent quota it is given. It tells its parent the URL it listens on.
import { createServer } from '../../src/server/index.js';
import { SqliteStorage } from '../../src/sqlite.js';

const env = process.env;
const app = createServer({
  storage: new SqliteStorage({ path: env.STORAGE_TARGET! }),
  rootToken: env.ROOT_TOKEN!,
  maxTokensPerParent: Number(env.MAX_TOKENS_PER_PARENT),
  log: () => undefined,
});
process.send!({ url: await app.listen({ port: 0 }) });
