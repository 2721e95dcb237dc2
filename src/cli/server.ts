// `strongroom server`: serves both engines over Vault's HTTP API until SIGINT or SIGTERM (SIGHUP reopens the audit
// files), configured by the environment (HOST, PORT, STRONGROOM_*).
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { isLogLevel, LOG_LEVELS } from '../server/log/log-level.js';
import { createServer } from '../server/server.js';
import type { ServerOptions } from '../server/server-options.js';
import { selectStorage } from '../server/storage/storage-selection.js';
import { TargetPolicy } from '../server/webhooks/target-policy.js';
import { type Command } from './command/command.js';

const USAGE = `usage: strongroom server

Serves the KV v2 engine at /v1/secret/ and the AWS auth method at /v1/auth/aws/ (until changed over sys/mounts and
sys/auth) over Vault's HTTP API.
Environment: HOST, PORT, STRONGROOM_DATA_DIR, STRONGROOM_STORAGE_URL, STRONGROOM_ROOT_KEY, STRONGROOM_ROOT_TOKEN,
STRONGROOM_AUDIT_FILE, STRONGROOM_TLS_CERT_FILE, STRONGROOM_TLS_KEY_FILE, STRONGROOM_LOG_LEVEL,
STRONGROOM_METRICS_UNAUTHENTICATED, STRONGROOM_STORAGE_CONNECT_TIMEOUT, STRONGROOM_STORAGE_STATEMENT_TIMEOUT,
STRONGROOM_WEBHOOK_ALLOW.
SIGINT or SIGTERM stop it gracefully; SIGHUP reopens the audit files.`;

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function fail(message: string): never {
  console.error(`strongroom: ${message}`);
  process.exit(1);
}

async function tlsFrom(env: NodeJS.ProcessEnv): Promise<ServerOptions['tls']> {
  const certFile = env.STRONGROOM_TLS_CERT_FILE;
  const keyFile = env.STRONGROOM_TLS_KEY_FILE;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile)
    fail('STRONGROOM_TLS_CERT_FILE and STRONGROOM_TLS_KEY_FILE go together: set both or neither');
  let pair: { cert: Buffer; key: Buffer };
  try {
    pair = { cert: await readFile(certFile), key: await readFile(keyFile) };
  } catch (error) {
    return fail(`cannot read the TLS certificate or key: ${messageOf(error)}`);
  }
  // Checked before anything is stored: a pair the listener would refuse is a configuration error, not a crash.
  try {
    createSecureContext(pair);
  } catch (error) {
    return fail(`cannot use the TLS certificate and key (${certFile}, ${keyFile}): ${messageOf(error)}`);
  }
  return pair;
}

async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  const host = env.HOST || '127.0.0.1';
  const port = Number(env.PORT || 8200);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`PORT must be a port number, got ${JSON.stringify(env.PORT)}`);
  const logLevel = env.STRONGROOM_LOG_LEVEL || 'info';
  if (!isLogLevel(logLevel))
    fail(`STRONGROOM_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  const tls = await tlsFrom(env);
  const webhookAllow = (env.STRONGROOM_WEBHOOK_ALLOW ?? '').split(',');
  // Checked before the storage is opened (and a root key file made): a bad entry is a configuration error.
  try {
    new TargetPolicy(webhookAllow);
  } catch (error) {
    fail(`STRONGROOM_WEBHOOK_ALLOW: ${messageOf(error).replace(/^webhookAllow: /, '')}`);
  }
  const selected = await selectStorage(env).catch((error: unknown) => fail(messageOf(error)));
  for (const warning of selected.warnings) console.error(`warning: ${warning}`);
  const given = env.STRONGROOM_ROOT_TOKEN || undefined;
  const app = createServer({
    storage: selected.storage,
    logLevel,
    ...(given ? { rootToken: given } : {}),
    ...(env.STRONGROOM_AUDIT_FILE ? { auditFile: env.STRONGROOM_AUDIT_FILE } : {}),
    metricsUnauthenticated: env.STRONGROOM_METRICS_UNAUTHENTICATED === 'true',
    webhookAllow,
    ...(tls ? { tls } : {}),
  });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    console.error(`${signal}: finishing requests in flight, then stopping`);
    await app.close();
    await selected.close();
    console.error('stopped');
    process.exit(0);
  };
  // Handlers first: a signal that comes while the server starts must stop it gracefully too.
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
  // SIGHUP ends a process by default; here it reopens the audit files, after logrotate (or anyone) moved them.
  process.on('SIGHUP', () => {
    app.reopenAuditFile().then(
      (files) =>
        console.error(
          files.length === 0
            ? 'SIGHUP: no audit file to reopen'
            : files.map((file) => `SIGHUP: reopened the audit file ${file}`).join('\n'),
        ),
      (error: unknown) =>
        console.error(`SIGHUP: ${messageOf(error)}; its device writes nothing until it can be opened`),
    );
  });

  let url: string;
  try {
    url = await app.listen({ host, port });
  } catch (error) {
    return fail(`cannot start on ${host}:${port}: ${messageOf(error)}`);
  }
  const madeRoot = await app.ready().catch((error: unknown) => fail(`cannot make the root token: ${messageOf(error)}`));
  if (!tls && !isLoopback(host)) {
    console.error(
      `warning: listening on ${host} without TLS: tokens and secrets cross the network in clear; set STRONGROOM_TLS_CERT_FILE and STRONGROOM_TLS_KEY_FILE`,
    );
  }
  console.error(`strongroom listening on ${url}`);
  console.error(`  storage: ${selected.description}`);
  console.error(`  KV v2 engine at ${url}/v1/secret/; every mount: ${url}/v1/sys/mounts and ${url}/v1/sys/auth`);
  // The root token is printed once, by the start that made it; one handed in is already known.
  if (given) console.error('  root token: from STRONGROOM_ROOT_TOKEN');
  else if (madeRoot) console.error(`  root token: ${madeRoot} (printed this once: keep it)`);
  else console.error('  root token: made at the first start (printed then)');
  console.error(`  for Vault clients: export VAULT_ADDR=${url} VAULT_TOKEN=<root token>`);
}

/** The server is configured by the environment alone, so it takes no arguments. */
export const serveCommand: Command = {
  summary: "serve both engines over Vault's HTTP API",
  usage: USAGE,
  async run(args, io) {
    if (args.length > 0) {
      io.stderr.write(
        `strongroom: unexpected argument ${JSON.stringify(args[0])}: the server takes its settings from the environment\n\n${USAGE}\n`,
      );
      return 1;
    }
    await serve(io.env);
    // The server runs until a signal ends the process.
    return new Promise(() => {});
  },
};
