// Vault's older token endpoints take the token in the path (auth/token/lookup/<token>, renew/<token>, revoke/<token>),
// and paths are what logs record. Wherever a path is shown (the request log, the audit log, error messages), the
// token in such a path is replaced.

/** What the request log and error messages show in place of a token in the path. */
export const REDACTED = '<redacted>';

// Case-insensitive and anywhere in the path, line breaks included: a path the server refuses (`/v1//auth/...`,
// `LOOKUP`, an encoded control character) is logged too.
const TOKEN_IN_PATH = /(auth\/token\/(?:lookup|renew|revoke)\/)(.+)/is;

/** `path` with the token after `auth/token/(lookup|renew|revoke)/` replaced by `replacement(token)`. */
export function redactTokenInPath(path: string, replacement: (token: string) => string = () => REDACTED): string {
  const found = TOKEN_IN_PATH.exec(path);
  return found ? `${path.slice(0, found.index)}${found[1]}${replacement(found[2]!)}` : path;
}

/** The path of a request URL as the request log shows it: without the query, and a token in it replaced. */
export function loggedPath(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  // Escapes decoded byte by byte, so that an encoded path (`%6Cookup`, `lookup%2F`) is recognised too, and so that a
  // malformed escape, which a strict decoder refuses, cannot hide one. Most paths have none: every request is logged.
  const decoded = path.includes('%')
    ? path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : path;
  const redacted = redactTokenInPath(decoded);
  return redacted === decoded ? path : redacted;
}
