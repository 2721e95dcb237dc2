// Vault's rules for where a mount may be: a clean path ending in '/', outside the server's own paths, and never inside
// another mount or around one.
import { Conflict, InvalidRequest, PermissionDenied } from '../../lib/errors.js';
import type { MountDefinition } from './mount-definition.js';

const MAX_PATH_LENGTH = 512;
/** The server's own paths: no secrets engine may be mounted below them (Vault adds cubbyhole/ and identity/). */
const PROTECTED = ['sys/', 'auth/', 'audit/', 'cubbyhole/', 'identity/'];

/** A path as Vault sanitises it: no leading '/', one trailing '/'. */
export function normalisedPath(path: string): string {
  const trimmed = path.replace(/^\/+/, '');
  return trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
}

/** Refuses a path with empty, `.` or `..` segments, or with characters that cannot be printed. */
export function checkCleanPath(path: string): void {
  if (path === '/' || path === '') throw new InvalidRequest('path must be specified as a string');
  if (path.length > MAX_PATH_LENGTH) throw new InvalidRequest(`path must be at most ${MAX_PATH_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new InvalidRequest('path cannot contain non-printable characters');
  const segments = path.slice(0, -1).split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new InvalidRequest(`path '${path}' does not match its cleaned form`);
  }
}

/**
 * Checks `path` (normalised, full: `kv/`, `auth/aws/`) for a new or moved mount: clean, allowed for its table, and
 * clear of every mount of `others`. Vault's messages: 403 `cannot mount "sys/"`, 409 `path is already in use at x/`.
 */
export function checkMountPath(path: string, others: readonly MountDefinition[]): void {
  checkCleanPath(path);
  if (path.startsWith('auth/')) {
    if (path === 'auth/') throw new InvalidRequest('path must be specified as a string');
    if (path.startsWith('auth/token/') || 'auth/token/'.startsWith(path))
      throw new Conflict('path is already in use at token/');
  } else if (PROTECTED.some((prefix) => path.startsWith(prefix) || prefix.startsWith(path))) {
    throw new PermissionDenied(`cannot mount ${JSON.stringify(path)}`);
  }
  for (const other of others) {
    if (other.path.startsWith(path) || path.startsWith(other.path)) {
      const shown = other.path.startsWith('auth/') ? other.path.slice('auth/'.length) : other.path;
      throw new Conflict(`path is already in use at ${shown}`);
    }
  }
}
