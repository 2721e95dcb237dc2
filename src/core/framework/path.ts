import { InvalidRequest } from '../../lib/errors.js';

/** Longest mount-relative path accepted; longer ones are refused before any storage access. */
export const MAX_PATH_LENGTH = 4096;

// C0 controls and DEL never belong in a path; they are how log injection and key confusion start.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const UNPAIRED_SURROGATE = /\p{Cs}/u;
const PLAIN_PATH = /^[\w-]+(?:\/[\w-]+)*\/?$/;

/**
 * Refuses traversal before any storage access: `.` and `..` segments, empty segments (`//`, a leading `/`) and control
 * characters. The empty path (the mount's root) and a single trailing '/' (a folder) are allowed. Names that merely
 * contain dots are ordinary.
 */
export function validatePath(path: string): void {
  // Most paths are plain names and slashes: one test shows they hold no control character, surrogate, empty segment,
  // '.' or '..' (which needs a dot), so the checks below, which split the path, can only pass.
  if (path.length <= MAX_PATH_LENGTH && PLAIN_PATH.test(path)) return;
  if (path.length > MAX_PATH_LENGTH)
    throw new InvalidRequest(`invalid path: longer than ${MAX_PATH_LENGTH} characters`);
  if (CONTROL_CHARACTERS.test(path)) throw new InvalidRequest('invalid path: it contains control characters');
  // A storage that keys by UTF-8 text turns every unpaired surrogate into U+FFFD, so distinct paths would collide.
  if (UNPAIRED_SURROGATE.test(path))
    throw new InvalidRequest('invalid path: not valid Unicode (an unpaired surrogate)');
  if (path === '') return;
  // The usual slip when mounting an engine behind a router: handing it the request's path from the server root.
  if (path.startsWith('/'))
    throw new InvalidRequest(
      `invalid path ${JSON.stringify(path)}: a path is relative to the mount and never starts with '/'`,
    );
  const segments = path.split('/');
  if (path.endsWith('/')) segments.pop();
  for (const segment of segments) {
    if (segment === '') throw new InvalidRequest(`invalid path ${JSON.stringify(path)}: empty path segment`);
    if (segment === '.' || segment === '..') {
      throw new InvalidRequest(`invalid path ${JSON.stringify(path)}: '.' and '..' segments are not allowed`);
    }
  }
}

/**
 * An engine's `storagePrefix` (configuration, so a TypeError): '' or a folder path ending in '/', held to the rules of
 * request paths, so that every storage key an engine forms is free of '.', '..' and empty segments.
 */
export function checkStoragePrefix(prefix: unknown): void {
  // validatePath refuses a leading '/' and the '.', '..' and empty segments.
  let valid = typeof prefix === 'string' && (prefix === '' || prefix.endsWith('/'));
  try {
    if (valid) validatePath(prefix as string);
  } catch {
    valid = false;
  }
  if (!valid) {
    const rule =
      "storagePrefix must be empty or a folder path ending in '/' (no leading '/', no '.', '..' or empty segments)";
    throw new TypeError(`${rule}, got ${JSON.stringify(prefix)}`);
  }
}
