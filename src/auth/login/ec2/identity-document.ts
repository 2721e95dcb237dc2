import { InvalidRequest } from '../../../lib/errors.js';
import { parseTimestamp } from '../../../lib/time.js';
import { isRegionName } from '../../../lib/region.js';

/** The fields of an instance identity document that the ec2 login uses (as in Vault). */
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
  return plainTimestamp(text) ?? (RFC3339.test(text) ? parseTimestamp(text) : undefined);
}

const digitsAt = (text: string, at: number, count: number): number => {
  let value = 0;
  for (let index = at; index < at + count; index++) {
    const digit = text.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
};

/**
 * `YYYY-MM-DDTHH:MM:SSZ`, the form the metadata service writes, read by hand when its day exists in every month (so
 * that it means the same as to the date parser, which showed in the login's profile); undefined leaves any other text,
 * valid or not, to the general rule.
 */
function plainTimestamp(text: string): Date | undefined {
  if (
    text.length !== 20 ||
    text[4] !== '-' ||
    text[7] !== '-' ||
    text[10] !== 'T' ||
    text[13] !== ':' ||
    text[16] !== ':' ||
    text[19] !== 'Z'
  ) {
    return undefined;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  // NaN (a non-digit) fails every comparison; Date.UTC reads years below 100 as 19xx, so those go the general way.
  if (!(
    year >= 1000 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= 28 &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  ))
    return undefined;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second));
}

/**
 * Parses verified identity document bytes (from verifyPkcs7 or verifyIdentitySignature: never from unverified
 * input). Fields other than the five above are ignored. Bad JSON or a missing or malformed field is InvalidRequest
 * (400) naming the field; every bad field is named, in the order above.
 */
export function parseIdentityDocument(content: Uint8Array): IdentityDocument {
  let json: unknown;
  try {
    json = JSON.parse(UTF8.decode(content));
  } catch (error) {
    throw new InvalidRequest(
      `failed to parse the instance identity document: ${error instanceof Error ? error.message : 'invalid JSON'}`,
    );
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
