// Starts the example server (examples/server.mjs, plain JavaScript over the built package) on a free port, and sends
// raw HTTP requests to it: node:http keeps paths exactly as written, where fetch would normalise `..` and `%2e%2e`.
import { execFileSync } from 'node:child_process';
import http from 'node:http';

const root = new URL('../../', import.meta.url).pathname;

/** The examples import 'strongroom', which resolves to dist/: build it when the sources are newer. */
export function ensureBuilt(): void {
  execFileSync(process.execPath, ['scripts/ensure-ready.mjs'], { cwd: root, stdio: 'ignore' });
}

/** What examples/server.mjs's createServer returns; typed here because the examples are plain JavaScript. */
export interface ExampleServer {
  rootToken: string;
  listen(address: { port?: number; host?: string }): Promise<string>;
  close(options?: { graceMs?: number }): Promise<void>;
  runPeriodic(): Promise<void>;
  server: http.Server;
}

export interface Started {
  app: ExampleServer;
  url: string;
  logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

/**
 * Loads a module of examples/. They are plain JavaScript with JSDoc, which the TypeScript build does not read, so
 * the path is computed and the module comes back untyped.
 */
export function loadExample(path: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return import(`${root}examples/${path}`);
}

export async function startServer(options: Record<string, unknown> = {}): Promise<Started> {
  const { createServer } = (await loadExample('server.mjs')) as { createServer(options: Record<string, unknown>): ExampleServer };
  const logs: Record<string, unknown>[] = [];
  const app = createServer({ log: (entry: Record<string, unknown>) => logs.push(entry), ...options });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, logs, stop: () => app.close({ graceMs: 1000 }) };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body; undefined when empty. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
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
}

export function request(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['X-Vault-Token'] = options.token;
  // With Transfer-Encoding: chunked set, node:http chunks the body itself.
  if (payload !== undefined && !headers['Transfer-Encoding']) headers['Content-Length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: options.method ?? 'GET', path: options.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: text === '' ? undefined : JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A failed node-vault call, as its ApiResponseError describes it. */
export interface Failure {
  statusCode: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- error bodies are checked field by field
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
