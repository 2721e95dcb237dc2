import { InvalidRequest } from '../../lib/errors.js';

// RFC 9110 token characters: what a header field name may contain.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** The canonical spelling of an HTTP header name, as Go's textproto writes it: `x-amz-date` becomes `X-Amz-Date`. */
export function canonicalHeaderName(name: string): string {
  return name
    .split('-')
    .map((part) => (part === '' ? part : part[0]!.toUpperCase() + part.slice(1).toLowerCase()))
    .join('-');
}

/** Canonicalises a header name given in configuration, refusing what could never be a header name. */
export function configuredHeaderName(name: string, field: string): string {
  if (!isHeaderName(name)) throw new InvalidRequest(`${field}: ${JSON.stringify(name)} is not a valid header name`);
  return canonicalHeaderName(name);
}
