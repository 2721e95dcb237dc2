// strongroom's Vault-compatible API inside an Express 5 application, beside the application's own routes.
import http from 'node:http';
import express from 'express';
import { acceptListMethod, createServer } from 'strongroom/server';

// Pass a durable storage (SqliteStorage, PostgresStorage, wrapped in EncryptedStorage) for state that must survive.
const vaultApi = createServer({ rootToken: process.env.STRONGROOM_ROOT_TOKEN });
const app = express();
app.get('/healthz', (_req, res) => void res.json({ ok: true }));
// Before any body parser: strongroom reads its own bodies. Anything outside /v1/ goes on to the next route.
app.use(vaultApi.handler);

// Node's HTTP parser refuses the LIST method that Vault clients send; acceptListMethod lets it through.
const server = acceptListMethod(http.createServer(app));
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => vaultApi.close().then(() => process.exit(0))));
