// `npm start`: serves strongroom on 127.0.0.1:8200 (HOST and PORT override it) until SIGINT or SIGTERM.
import { createServer } from './server.mjs';

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 8200);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}

const given = process.env.STRONGROOM_ROOT_TOKEN;
const app = createServer({ rootToken: given || undefined });

let stopping = false;
/** @param {NodeJS.Signals} signal */
async function stop(signal) {
  if (stopping) {
    console.error(`${signal} again: exiting now`);
    process.exit(1);
  }
  stopping = true;
  console.error(`${signal}: finishing requests in flight, then stopping`);
  await app.close();
  console.error('stopped');
  process.exit(0);
}
// Handlers first: a signal that comes while the server starts must stop it gracefully too.
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

let url;
try {
  url = await app.listen({ host, port });
} catch (error) {
  console.error(`cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

console.error(`strongroom listening on ${url}`);
console.error(`  KV v2 engine at ${url}/v1/secret/, cloud auth method at ${url}/v1/auth/cloud/`);
// The root token is printed only when this process made it up: one that was handed in is already known.
console.error(given ? '  root token: from STRONGROOM_ROOT_TOKEN' : `  root token: ${app.rootToken}`);
console.error(`  for Vault clients: export VAULT_ADDR=${url} VAULT_TOKEN=<root token>`);

