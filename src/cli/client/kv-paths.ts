// Where a KV v2 command's request goes: the mount (`-mount=`, `secret` by default), the operation's segment (`data`,
// `metadata`, `delete`, ...) and the secret's path, each segment escaped for the URL.
import { UsageError } from './errors.js';
import type { FlagSpec, FlagValue } from './flags.js';

/** The flag every kv command takes. */
export const MOUNT_FLAG: FlagSpec = { mount: 'string' };

/** The API path (below /v1/) of `segment` for the secret `path`. */
export function kvPath(flags: Readonly<Record<string, FlagValue>>, segment: string, path: string): string {
  const mount = String(flags.mount ?? 'secret').replace(/^\/+|\/+$/g, '');
  if (!mount) throw new UsageError('-mount must name a mount');
  const escaped = path
    .replace(/^\/+/, '')
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
  return `${mount}/${segment}/${escaped}`;
}

/** The path as Vault's messages show it (not escaped). */
export function shownPath(apiPath: string): string {
  return decodeURIComponent(apiPath);
}

/** `-versions=1,2` as numbers; required by undelete and destroy. */
export function versionsOf(flags: Readonly<Record<string, FlagValue>>, required: boolean): number[] | undefined {
  const given = flags.versions;
  if (given === undefined) {
    if (required) throw new UsageError('No versions provided, use the "-versions" flag to specify the version');
    return undefined;
  }
  const versions = String(given)
    .split(',')
    .map((part) => part.trim());
  if (versions.some((part) => !/^\d+$/.test(part)))
    throw new UsageError(`-versions must be whole numbers separated by commas, got ${JSON.stringify(given)}`);
  return versions.map(Number);
}
