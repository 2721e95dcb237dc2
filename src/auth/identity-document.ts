import { isAscii } from 'node:buffer';
import { InvalidRequest } from '../core/errors.js';
import { parseTimestamp } from '../core/time.js';
import { isRegionName } from './region.js';

/** The fields of an instance identity document that the ec2 login uses (reference §3.4). */
export interface IdentityDocument {
  instanceId: string;
  accountId: string;
  region: string;
  /** The AMI the instance was launched from. */
  imageId: string;
  /** When the instance was last started; orders logins of one instance (nonce and migration checks). */
  pendingTime: Date;
}

// Identifiers end up in storage keys and cloud API calls: AWS's own shapes (i-0abc..., 123456789012, ami-...) fit,
// while a '/' or a control character from a document signed by a registered certificate cannot.
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
// Stateless without `stream`, so one serves every call.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

type Check = (text: string) => string | undefined;
const identifier: Check = (text) => (IDENTIFIER.test(text) ? undefined : 'must be a plain identifier');
// Checked by hand rather than with a schema library: this runs on every ec2 login, where a schema's generic machinery
// cost a tenth of the time of the whole login up to its signature verdict.
const CHECKS: ReadonlyArray<[keyof IdentityDocument, Check]> = [
  ['instanceId', identifier],
  ['accountId', identifier],
  ['region', (text) => (isRegionName(text) ? undefined : 'must be a region name such as us-east-1')],
  ['imageId', identifier],
  ['pendingTime', (text) => (timestampOf(text) ? undefined : 'must be an RFC 3339 timestamp')],
];

function timestampOf(text: string): Date | undefined {
  return RFC3339.test(text) ? parseTimestamp(text) : undefined;
}

/** The document's text; ASCII (every document the metadata service signs) is read without the UTF-8 decoder. */
function textOf(content: Uint8Array): string {
  return isAscii(content) ? Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1') : UTF8.decode(content);
}

/**
 * Parses verified identity document bytes (from verifyPkcs7 or verifyIdentitySignature: never from unverified
 * input). Fields other than the five above are ignored. Bad JSON or a missing or malformed field is InvalidRequest
 * (400) naming the field; every bad field is named, in the order above.
 */
export function parseIdentityDocument(content: Uint8Array): IdentityDocument {
  let json: unknown;
  try {
    json = JSON.parse(textOf(content));
  } catch (error) {
    throw new InvalidRequest(`failed to parse the instance identity document: ${error instanceof Error ? error.message : 'invalid JSON'}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InvalidRequest('invalid instance identity document: the document is not a JSON object');
  }
  const fields = json as Record<string, unknown>;
  // The checks spelled out for a valid document, the time parsed once; any failure is worded by the table above.
  const { instanceId, accountId, region, imageId, pendingTime } = fields;
  const time = typeof pendingTime === 'string' ? timestampOf(pendingTime) : undefined;
  if (
    time &&
    typeof instanceId === 'string' &&
    IDENTIFIER.test(instanceId) &&
    typeof accountId === 'string' &&
    IDENTIFIER.test(accountId) &&
    typeof region === 'string' &&
    isRegionName(region) &&
    typeof imageId === 'string' &&
    IDENTIFIER.test(imageId)
  ) {
    return { instanceId, accountId, region, imageId, pendingTime: time };
  }
  const problems: string[] = [];
  for (const [field, check] of CHECKS) {
    const value = fields[field];
    const problem = typeof value === 'string' ? check(value) : 'is missing or not a string';
    if (problem !== undefined) problems.push(`"${field}" ${problem}`);
  }
  throw new InvalidRequest(`invalid instance identity document: ${problems.join('; ')}`);
}
