import { z } from 'zod';
import { InvalidRequest } from '../../../lib/errors.js';
import { decodeBase64 } from '../../../lib/base64.js';
import { isPlainObject } from '../../../core/framework/fields.js';
import { isHeaderName } from '../../config/header-name.js';

/**
 * The headers of a client's signed request, as sent in `iam_request_headers`. Names are case-insensitive: repeated
 * spellings merge into the first one seen, whose spelling is kept for forwarding.
 */
export class RequestHeaders {
  readonly #entries = new Map<string, { name: string; values: string[] }>();

  add(name: string, values: readonly string[]): void {
    const key = name.toLowerCase();
    const entry = this.#entries.get(key);
    if (entry) entry.values.push(...values);
    else this.#entries.set(key, { name, values: [...values] });
  }

  /** The values of a header, in order; undefined when it is absent. */
  get(name: string): readonly string[] | undefined {
    return this.#entries.get(name.toLowerCase())?.values;
  }

  delete(name: string): void {
    this.#entries.delete(name.toLowerCase());
  }

  /** The names as the client spelled them. */
  names(): string[] {
    return [...this.#entries.values()].map((entry) => entry.name);
  }

  get size(): number {
    return this.#entries.size;
  }

  toRecord(): Record<string, string[]> {
    return Object.fromEntries([...this.#entries.values()].map((entry) => [entry.name, [...entry.values]]));
  }
}

const MAX_HEADERS = 64;
const MAX_FIELD_LENGTH = 64 * 1024;
// A name that is not an RFC 9110 token, or CR, LF or NUL in a value, could split the forwarded request.
const FORBIDDEN_IN_VALUE = /[\r\n\0]/;

const scalar = z.union([z.string(), z.number().refine(Number.isFinite, 'must be a finite number')]).transform(String);
// Arrays first: clients send every value as a list (Go's http.Header), and a union that tries a failing branch first
// builds that branch's issues for nothing, seven times the cost of the check.
const headerValues = z.union([z.array(scalar), scalar.transform((value) => [value])]);

type HeaderPair = [name: string, values: string[]];

/**
 * Decodes `iam_request_headers` in the encodings clients use, tried in this order (as in Vault): a JSON object whose
 * values are a string, a number or an array of them; a string holding base64 of such an object, or (when it is not
 * base64) the JSON itself; a list of "Name: Value" strings. Anything else is InvalidRequest (400).
 */
export function decodeRequestHeaders(field: unknown): RequestHeaders {
  if (field === undefined || field === null || field === '') throw new InvalidRequest('missing iam_request_headers');
  if (typeof field === 'string') return build(objectPairs(parseJsonText(field)));
  if (Array.isArray(field)) return build(linePairs(field));
  if (isPlainObject(field)) return build(objectPairs(field));
  throw invalid('expected a JSON object, a base64 or JSON string, or a list of "Name: Value" strings');
}

function parseJsonText(text: string): unknown {
  if (text.length > MAX_FIELD_LENGTH) throw invalid(`longer than ${MAX_FIELD_LENGTH} characters`);
  const decoded = decodeBase64(text.trim());
  try {
    return JSON.parse(decoded ? decoded.toString('utf8') : text);
  } catch {
    throw invalid('not a JSON object, nor base64 of one');
  }
}

function objectPairs(value: unknown): HeaderPair[] {
  if (!isPlainObject(value)) throw invalid('not a JSON object');
  return limited(Object.entries(value)).map(([name, raw]) => {
    const values = headerValues.safeParse(raw);
    if (!values.success)
      throw invalid(`the value of header ${JSON.stringify(name)} must be a string, a number or an array of them`);
    return [name, values.data];
  });
}

function linePairs(lines: unknown[]): HeaderPair[] {
  return limited(lines).map((line) => {
    const colon = typeof line === 'string' ? line.indexOf(':') : -1;
    if (typeof line !== 'string' || colon < 0)
      throw invalid(`list items must be "Name: Value" strings, got ${JSON.stringify(line)}`);
    return [line.slice(0, colon).trim(), [line.slice(colon + 1).trim()]];
  });
}

function limited<T>(items: T[]): T[] {
  if (items.length > MAX_HEADERS) throw invalid(`more than ${MAX_HEADERS} headers`);
  return items;
}

function build(pairs: HeaderPair[]): RequestHeaders {
  let length = 0;
  const headers = new RequestHeaders();
  for (const [name, values] of pairs) {
    if (!isHeaderName(name)) throw invalid(`invalid header name ${JSON.stringify(name)}`);
    if (values.some((value) => FORBIDDEN_IN_VALUE.test(value)))
      throw invalid(`header ${name} has a line break or NUL in its value`);
    length = values.reduce((sum, value) => sum + value.length, length + name.length);
    if (length > MAX_FIELD_LENGTH) throw invalid(`longer than ${MAX_FIELD_LENGTH} characters`);
    headers.add(name, values);
  }
  return headers;
}

function invalid(detail: string): InvalidRequest {
  return new InvalidRequest(`failed to parse iam_request_headers: ${detail}`);
}
