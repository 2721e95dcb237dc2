// The HTTP client of the commands: where the server is, which token and CA to use (flags, then STRONGROOM_*, then
// VAULT_*, then the token file), and Vault's wording when the server refuses.
import http from 'node:http';
import https from 'node:https';
import { readFile } from 'node:fs/promises';
import { LocalError, ServerError } from './errors.js';
import type { FlagSpec } from './flags.js';
import { readTokenFile } from './token-file.js';

/** Flags every client command takes, as Vault's do. */
export const HTTP_FLAGS: FlagSpec = { address: 'string', 'ca-cert': 'string' };

/** The server's own default listener: plain HTTP on loopback (Vault's CLI assumes https). */
export const DEFAULT_ADDRESS = 'http://127.0.0.1:8200';

/** A JSON object of an answer. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Vault's answer envelope: `data` or `auth`, among others. */
export interface AnswerBody extends JsonObject {
  readonly data?: JsonObject;
  readonly auth?: JsonObject;
}

/** One answer: its status and parsed body (empty when there was none, as for a 204, or it was not a JSON object). */
export interface Answer {
  readonly status: number;
  readonly json: AnswerBody;
}

function parseBody(text: string): AnswerBody {
  try {
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as AnswerBody) : {};
  } catch {
    return {};
  }
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly query?: Readonly<Record<string, string>>;
  /** Default application/json; a PATCH names its patch format (application/merge-patch+json). */
  readonly contentType?: string;
  /** Statuses that are answers rather than errors (404 for "no value found"). */
  readonly accept?: readonly number[];
}

/** Sends requests to one server with one token. */
export class ApiClient {
  constructor(
    readonly address: string,
    readonly token: string | undefined,
    readonly ca: Buffer | undefined,
  ) {}

  /** `path` is below /v1/; a non-2xx answer not in `accept` is a {@link ServerError} in Vault's words. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const url = new URL(`/v1/${path.replace(/^\/+/, '')}`, this.address);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    let answer: { status: number; text: string };
    try {
      answer = await this.send(method, url, payload, options.contentType);
    } catch (error) {
      throw new ServerError(`${method} ${url.href}: ${error instanceof Error ? error.message : String(error)}`, 0);
    }
    const json = parseBody(answer.text);
    const ok = (answer.status >= 200 && answer.status < 300) || options.accept?.includes(answer.status);
    if (!ok) throw new ServerError(describeFailure(method, url, answer.status, json, answer.text), answer.status);
    return { status: answer.status, json };
  }

  private send(
    method: string,
    url: URL,
    payload: string | undefined,
    contentType = 'application/json',
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {};
    if (this.token) headers['X-Vault-Token'] = this.token;
    if (payload !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') throw new Error(`unsupported address scheme ${url.protocol}`);
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(
        url,
        { method, headers, ...(secure && this.ca ? { ca: this.ca } : {}) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }
}

function describeFailure(method: string, url: URL, status: number, json: AnswerBody, text: string): string {
  const errors = json.errors;
  const listed = Array.isArray(errors) ? errors.map((error) => `* ${String(error)}`).join('\n') : text.trim();
  return `Error making API request.\n\nURL: ${method} ${url.href}\nCode: ${status}. Errors:\n\n${listed}`;
}

/**
 * The client the environment and flags describe. The token: STRONGROOM_TOKEN, else VAULT_TOKEN, else the token file
 * that `strongroom login` wrote, as Vault prefers VAULT_TOKEN to its token helper.
 */
export async function clientFrom(env: NodeJS.ProcessEnv, flags: Readonly<Record<string, unknown>>): Promise<ApiClient> {
  const address = (flags.address as string | undefined) || env.STRONGROOM_ADDR || env.VAULT_ADDR || DEFAULT_ADDRESS;
  if (!URL.canParse(address)) throw new LocalError(`the address ${JSON.stringify(address)} is not a URL`);
  const caFile = (flags['ca-cert'] as string | undefined) || env.STRONGROOM_CACERT || env.VAULT_CACERT;
  let ca: Buffer | undefined;
  if (caFile) {
    try {
      ca = await readFile(caFile);
    } catch (error) {
      throw new LocalError(`cannot read the CA certificate ${caFile}: ${(error as Error).message}`);
    }
  }
  const token = env.STRONGROOM_TOKEN || env.VAULT_TOKEN || (await readTokenFile(env));
  return new ApiClient(address, token, ca);
}
