/**
 * Strict standard base64 (RFC 4648 §4, padded). Buffer.from(text, 'base64') silently skips characters outside the
 * alphabet and accepts URL-safe ones, so a corrupted or smuggled value would decode to *something*; login fields must
 * instead fail with a clear 400.
 */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const WHITESPACE = /\s+/g;

/**
 * Decodes standard padded base64; undefined when the text is not exactly that. With `ignoreWhitespace`, line breaks
 * and spaces anywhere are dropped first (the metadata service wraps PKCS#7 at 64 columns).
 */
export function decodeBase64(text: string, options: { ignoreWhitespace?: boolean } = {}): Buffer | undefined {
  const compact = options.ignoreWhitespace ? text.replace(WHITESPACE, '') : text;
  if (!STRICT_BASE64.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}
