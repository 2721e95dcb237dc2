import { z } from 'zod';
import { describeFieldError, int, isPlainObject, str, typed } from '../../core/framework/fields.js';
import type { EngineRequest, EngineResponse } from '../../core/framework/request.js';
import { InvalidRequest, PermissionDenied } from '../../lib/errors.js';
import { keyPath } from '../values/key-paths.js';

/**
 * POST read-many (hashicorp/vault#272): many `GET data/<path>` in one request. Each item is that very request, through
 * the engine's own dispatch with the caller's `authorize`: it needs what the GET needs (`read` on `data/<path>`), and
 * answers what the GET answers, so a refused item is the GET's 403, decided before anything is read and identical
 * whether the key exists or not. The route itself asks no capability: a batch reveals nothing its items' GETs would
 * not, and asking one would make every policy that grants reads name the batch too. A caller refused every item (a
 * token that may read none of them, or no valid token at all) gets the plain 403 of any refused request.
 */

/** The most items one request may carry: with the engine's value limit, what bounds the memory an answer takes. */
export const MAX_READ_MANY = 100;

/** How many items are read at once: enough to overlap a network database's round trips, few enough to bound them. */
const CONCURRENCY = 8;

/** One item to read: a key path, and the version (absent, 0 or negative: the current one). */
export interface KvReadManyRequest {
  path: string;
  version?: number;
}

/** One item's answer: the status and `data` of `GET data/<path>`, or its status and `errors`. */
export type KvReadManyResponse =
  { path: string; status: number; data: unknown } | { path: string; status: number; errors: string[] };

/** What `POST read-many` answers in its `data`, and `KvEngine.readMany` resolves to. */
export interface KvReadManyResult {
  /** One per item, in request order. */
  responses: KvReadManyResponse[];
}

const item = z.strictObject({ path: str(), version: int().optional() });

/** An item as given, checked; the index names it in the error, which is all a 400 answers. */
function checkedItem(value: unknown, index: number): KvReadManyRequest {
  const where = `requests[${index}]`;
  if (!isPlainObject(value)) throw new InvalidRequest(`${where}: expected an object with "path" and "version"`);
  const parsed = item.safeParse(value);
  if (!parsed.success) throw new InvalidRequest(`${where}: ${describeFieldError(parsed.error)}`);
  try {
    keyPath(parsed.data.path);
  } catch (error) {
    if (error instanceof InvalidRequest) throw new InvalidRequest(`${where}: ${error.message}`);
    throw error;
  }
  return parsed.data.version === undefined ? { path: parsed.data.path } : parsed.data;
}

/** Every item checked: a list of 1 to MAX_READ_MANY well-formed items, else a 400 naming the first at fault. */
function checkedRequests(value: unknown): KvReadManyRequest[] {
  if (value === undefined) throw new InvalidRequest('missing requests: a list of {"path", "version"}');
  if (!Array.isArray(value)) throw new InvalidRequest('requests must be a list of {"path", "version"}');
  if (value.length === 0) throw new InvalidRequest('requests is empty: give at least one');
  if (value.length > MAX_READ_MANY)
    throw new InvalidRequest(`requests has ${value.length} items; at most ${MAX_READ_MANY} are read at once`);
  return value.map((entry: unknown, index) => checkedItem(entry, index));
}

export const readManyFields = z.object({
  requests: typed(z.unknown(), 'list')
    .optional()
    .describe(`The keys to read, at most ${MAX_READ_MANY}: each \`{"path": ..., "version": ...}\`; required.`),
});

function itemResponse(path: string, response: EngineResponse): KvReadManyResponse {
  const body = response.body;
  if (body && 'data' in body && body.data !== undefined) return { path, status: response.status, data: body.data };
  return { path, status: response.status, errors: body?.errors ?? [] };
}

/**
 * Checks the items (`requests` as given), then reads each by `get` (the engine's dispatch), in request order, at most
 * CONCURRENCY at once. `authorize` is the caller's: each item asks it as its GET would.
 */
export async function readMany(
  get: (request: EngineRequest) => Promise<EngineResponse>,
  given: unknown,
  authorize?: EngineRequest['authorize'],
): Promise<KvReadManyResult> {
  const requests = checkedRequests(given);
  const responses = new Array<KvReadManyResponse>(requests.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < requests.length; index = next++) {
      const { path, version } = requests[index]!;
      const query: Record<string, string> = version === undefined ? {} : { version: String(version) };
      const answer = await get({ method: 'GET', path: `data/${path}`, query, ...(authorize ? { authorize } : {}) });
      responses[index] = itemResponse(path, answer);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, requests.length) }, worker));
  if (authorize && responses.every((response) => response.status === 403)) throw new PermissionDenied();
  return { responses };
}
