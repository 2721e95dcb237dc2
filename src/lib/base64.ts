/**
 * Strict standard base64 (RFC 4648 §4, padded). Buffer.from(text, 'base64') silently skips characters outside the
 * alphabet and accepts URL-safe ones, so a corrupted or smuggled value would decode to *something*; login fields must
 * instead fail with a clear 400.
 */

// What each ASCII character is: 0 not allowed, 1 in the alphabet, 2 padding, 3 ASCII whitespace.
const SYMBOL = 1;
const PAD = 2;
const SPACE = 3;
const ASCII = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
  ASCII[character.charCodeAt(0)] = SYMBOL;
ASCII[0x3d] = PAD;
for (const character of ' \t\n\v\f\r') ASCII[character.charCodeAt(0)] = SPACE;

/** The characters beyond ASCII of the regular expression class `\s`. */
function isUnicodeSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Whether `text`, without its whitespace when that is ignored, is padded standard base64, and whether it holds
 * whitespace beyond ASCII (which Buffer's decoder would not skip). One pass, no copies: login documents are a few KB.
 */
function check(text: string, ignoreWhitespace: boolean): { valid: boolean; unicodeSpace: boolean } {
  let symbols = 0;
  let padding = 0;
  let unicodeSpace = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const kind = code < 128 ? ASCII[code] : ignoreWhitespace && isUnicodeSpace(code) ? SPACE : 0;
    if (kind === SYMBOL) {
      if (padding > 0) return { valid: false, unicodeSpace };
      symbols++;
    } else if (kind === PAD) {
      padding++;
    } else if (kind === SPACE && ignoreWhitespace) {
      if (code >= 128) unicodeSpace = true;
    } else {
      return { valid: false, unicodeSpace };
    }
  }
  const rest = symbols % 4;
  const valid = padding === 0 ? rest === 0 : padding === 1 ? rest === 3 : padding === 2 && rest === 2;
  return { valid, unicodeSpace };
}

const WHITESPACE = /\s+/g;

/**
 * The length `text` decodes to if it is padded standard base64 whose only whitespace is line feeds (when ignored),
 * else -1 (which does not mean invalid: the full check decides then). Buffer's decoder skips characters outside the
 * alphabet, so when every character but the line feeds and the final padding counts as a symbol, the decoded length
 * proves that each of them was one: with the padding right, one skipped character always shortens the result.
 * Buffer's decoder also takes the URL-safe '-' and '_', stops at an inner '=', and reads a character beyond Latin-1
 * as its low byte: such text is left to the full check.
 */
function canonicalLength(text: string, ignoreWhitespace: boolean): number {
  if (Buffer.byteLength(text, 'utf8') !== text.length || text.includes('-') || text.includes('_')) return -1;
  let lineFeeds = 0;
  if (ignoreWhitespace) for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lineFeeds++;
  let end = text.length;
  while (ignoreWhitespace && end > 0 && text.charCodeAt(end - 1) === 0x0a) end--;
  let padding = 0;
  while (padding < end && text.charCodeAt(end - 1 - padding) === 0x3d) padding++;
  const firstPad = text.indexOf('=');
  if (padding > 2 || (firstPad >= 0 && firstPad < end - padding)) return -1;
  const symbols = text.length - lineFeeds - padding;
  return (symbols + padding) % 4 === 0 ? Math.floor((symbols * 3) / 4) : -1;
}

/**
 * Decodes standard padded base64; undefined when the text is not exactly that. With `ignoreWhitespace`, line breaks
 * and spaces anywhere are dropped first (the metadata service wraps PKCS#7 at 64 columns).
 */
export function decodeBase64(text: string, options: { ignoreWhitespace?: boolean } = {}): Buffer | undefined {
  const ignoreWhitespace = options.ignoreWhitespace === true;
  // Fast path, in native code but for a few scans: see canonicalLength.
  const decoded = Buffer.from(text, 'base64');
  if (decoded.length === canonicalLength(text, ignoreWhitespace)) return decoded;
  const { valid, unicodeSpace } = check(text, ignoreWhitespace);
  if (!valid) return undefined;
  // Buffer's decoder skips ASCII whitespace itself; other spaces must go first.
  return Buffer.from(unicodeSpace ? text.replace(WHITESPACE, '') : text, 'base64');
}
