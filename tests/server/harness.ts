// Starts strongroom's server (src/server) on a free port, and sends raw HTTP requests to it: node:http keeps paths
// exactly as written, where fetch would normalise `..` and `%2e%2e`. Also builds the `strongroom` command for tests
// that run it as a child process.
import http from 'node:http';
import https from 'node:https';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createServer, type ServerOptions, type StrongroomServer } from '../../src/server/index.js';
import { testStorage } from '../support/test-storage.js';

const root = new URL('../../', import.meta.url).pathname;

export interface Started {
  app: StrongroomServer;
  url: string;
  rootToken: string;
  logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<Started> {
  const logs: Record<string, unknown>[] = [];
  const app = createServer({ log: (entry) => logs.push(entry), ...options, storage: options.storage ?? testStorage() });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const rootToken = options.rootToken ?? (await app.ready())!;
  return { app, url, rootToken, logs, stop: () => app.close({ graceMs: 1000 }) };
}

/** A fresh, empty data directory for one run of the command. */
export function dataDir(): string {
  return mkdtempSync(join(tmpdir(), 'strongroom-data-'));
}

let cli: Promise<string> | undefined;

/**
 * The `strongroom` command bundled from source into .test-build/ (tsup's full build takes minutes on a busy machine);
 * packages stay external and resolve from the repository's node_modules, as they do for the published bin.
 */
export function builtCli(): Promise<string> {
  cli ??= (async () => {
    const dir = `${root}.test-build`;
    mkdirSync(dir, { recursive: true });
    const outfile = `${dir}/cli-${process.pid}.mjs`;
    await build({
      entryPoints: [`${root}src/cli/main.ts`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile,
      logLevel: 'silent',
    });
    return outfile;
  })();
  return cli;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body; undefined when empty. */
  json: any;
}

export interface RawRequest {
  method?: string;
  /** Sent verbatim: '/v1/secret/data/a/%2e%2e/b' stays as written. */
  path: string;
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A body sent as is, bypassing JSON encoding. */
  rawBody?: string | Buffer;
  /** For https URLs: e.g. the `ca` to trust. */
  tls?: https.RequestOptions;
}

/** The body as JSON; undefined when empty or not JSON (a framework's own HTML error page, say). */
function parseJson(text: string): any {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function request(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const { hostname, port, protocol } = new URL(baseUrl);
  const client = protocol === 'https:' ? https : http;
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['X-Vault-Token'] = options.token;
  // With Transfer-Encoding: chunked set, node:http chunks the body itself.
  if (payload !== undefined && !headers['Transfer-Encoding'])
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        host: hostname,
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers,
        agent: false,
        ...options.tls,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A failed node-vault call, as its ApiResponseError describes it. */
export interface Failure {
  statusCode: number;
  body: any;
}

/** node-vault rejects every non-2xx answer; this returns it instead. */
export async function failure(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise;
  } catch (error) {
    return (error as { response: Failure }).response;
  }
  throw new Error('expected the request to fail');
}
