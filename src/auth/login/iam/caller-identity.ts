import { AuthenticationRefused, CloudUnavailable } from '../../../lib/errors.js';
import type { CallerIdentity, HttpResponseSnapshot } from '../../../ports/cloud.js';
import { readPlainXml, type PlainElement } from './plain-xml.js';

/**
 * Validation of STS's answer to a forwarded GetCallerIdentity request (as in Vault).
 *
 * The Content-Type must be exactly `text/xml`, without parameters, as in Vault: that is what STS sends, and a
 * looser rule would only widen what a misdirected or compromised endpoint could pass off as an identity.
 */

// A GetCallerIdentity answer is about 500 bytes; anything far larger is not one.
const MAX_BODY_LENGTH = 64 * 1024;
// STS answers these with 400, but they mean "STS is overloaded", not "the caller is refused".
const THROTTLING_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);

// For error answers only, which are rare and may hold entities in their message: loaded on the first one, so that the
// root entry loads no general XML parser.
let parser: Promise<{ parse(text: string, validate: true): unknown }> | undefined;
const errorParser = () =>
  (parser ??= import('fast-xml-parser').then(
    ({ XMLParser }) =>
      new XMLParser({ parseTagValue: false, ignoreAttributes: true, ignoreDeclaration: true, removeNSPrefix: true }),
  ));

/**
 * The caller identity STS vouched for. A 200 that is not a well-formed `text/xml` GetCallerIdentityResponse, a 5xx,
 * a throttling error or anything unparsable is CloudUnavailable (502); STS refusing the client's signed request (a
 * 4xx ErrorResponse: SignatureDoesNotMatch, ExpiredToken, InvalidClientTokenId, ...) is AuthenticationRefused (403).
 */
export async function parseCallerIdentityResponse(response: HttpResponseSnapshot): Promise<CallerIdentity> {
  if (response.status !== 200) throw await errorResponse(response);
  const invalid = (detail: string): CloudUnavailable =>
    new CloudUnavailable(`body of GetCallerIdentity is invalid: ${detail}`);
  if ((response.headers['content-type'] ?? '').trim() !== 'text/xml') throw invalid('the Content-Type is not text/xml');
  const body = response.body.trim();
  if (!body.startsWith('<GetCallerIdentityResponse') && !body.startsWith('<?xml'))
    throw invalid('it is not a GetCallerIdentityResponse');

  const root = body.length > MAX_BODY_LENGTH ? undefined : readPlainXml(body);
  // The first result when there are several, as Vault reads it.
  const result =
    root?.name === 'GetCallerIdentityResponse'
      ? root.children.find((child) => child.name === 'GetCallerIdentityResult')
      : undefined;
  if (!result) throw new CloudUnavailable('error parsing STS response: no GetCallerIdentityResult');
  const arn = onlyText(result, 'Arn');
  const userId = onlyText(result, 'UserId');
  const accountId = onlyText(result, 'Account');
  if (!arn || !userId || !accountId)
    throw new CloudUnavailable('error parsing STS response: Arn, UserId or Account is missing');
  return { arn, userId, accountId };
}

/** The text of the one child of that name, which must hold text only; undefined when absent, repeated or empty. */
function onlyText(element: PlainElement, name: string): string | undefined {
  const found = element.children.filter((child) => child.name === name);
  return found.length === 1 && found[0]!.children.length === 0 ? found[0]!.text || undefined : undefined;
}

async function errorResponse(response: HttpResponseSnapshot): Promise<Error> {
  const prefix = `received error code ${response.status} from STS`;
  const error = (await parseXml(response.body.trim()))?.ErrorResponse;
  const detail = isRecord(error) && isRecord(error.Error) ? error.Error : undefined;
  const code = nonEmpty(detail?.Code) ? detail.Code : undefined;
  if (
    response.status < 400 ||
    response.status >= 500 ||
    response.status === 429 ||
    !code ||
    THROTTLING_CODES.has(code)
  ) {
    return new CloudUnavailable(code ? `${prefix}: ${code}` : prefix);
  }
  const message = nonEmpty(detail?.Message) ? `: ${detail.Message.slice(0, 300)}` : '';
  return new AuthenticationRefused(`${prefix}: ${code}${message}`);
}

/** The parsed document, or undefined for anything that is not small, well-formed XML without a DTD. */
async function parseXml(body: string): Promise<Record<string, unknown> | undefined> {
  if (body.length > MAX_BODY_LENGTH || !body.startsWith('<') || /<!DOCTYPE/i.test(body)) return undefined;
  const reader = await errorParser();
  try {
    const parsed: unknown = reader.parse(body, true);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
