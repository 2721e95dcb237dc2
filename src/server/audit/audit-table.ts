// The audit devices enabled over the API (`PUT sys/audit/:path`), in the storage every process shares: each with its
// options and its own HMAC key, as each Vault device has its own salt.
import { randomBytes } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { InternalError, InvalidRequest } from '../../lib/errors.js';
import { isPlainObject } from '../../core/framework/fields.js';
import type { JsonStore } from '../../core/store/stored-json.js';

const TABLE_KEY = 'sys/audit-devices';
const KEY_BYTES = 32;
// A path is Vault's: one or more names; whatever it is, it is shown back and written in URLs.
const PATH = /^[\w.-]+(?:\/[\w.-]+)*\/$/;
const MAX_PATH = 128;

const storedDevice = z.object({
  path: z.string(),
  type: z.literal('file'),
  description: z.string(),
  local: z.boolean(),
  options: z.record(z.string(), z.string()),
  /** The device's HMAC key, base64. */
  key: z.string(),
});
const storedTable = z.object({ devices: z.array(storedDevice) });

/** One device of the table, as stored. */
export type StoredDevice = z.infer<typeof storedDevice>;

/** Where a file device writes, read from its options as Vault's file device reads them. */
export interface FileOptions {
  file: string;
  mode: number;
}

/** A device path as Vault keeps it: without a leading '/', with a trailing one (`file` is `file/`). */
export function devicePath(raw: string): string {
  const path = `${raw.replace(/^\/+|\/+$/g, '')}/`;
  if (path === '/') throw new InvalidRequest('audit device path must be specified');
  if (path.length > MAX_PATH || !PATH.test(path) || path.split('/').some((name) => name === '.' || name === '..'))
    throw new InvalidRequest(`invalid audit device path ${JSON.stringify(raw)}`);
  return path;
}

/**
 * A file device's options: `file_path` (or `path`, which older clients such as hvac send), an absolute path; and
 * `mode`, the octal mode of a file it creates (0600 unless given). Other options of Vault's file device (`log_raw`,
 * `hmac_accessor`, `format`, `prefix`, ...) are refused rather than ignored: a device that silently kept to other rules
 * than its operator set would mislead.
 */
export function fileOptions(options: Readonly<Record<string, string>>): FileOptions {
  for (const name of Object.keys(options)) {
    if (!['file_path', 'path', 'mode'].includes(name))
      throw new InvalidRequest(`file audit device option ${JSON.stringify(name)} is not supported`);
  }
  const file = options.file_path ?? options.path;
  if (file === undefined || file === '') throw new InvalidRequest('file_path is required');
  if (!isAbsolute(file))
    throw new InvalidRequest(`file_path must be an absolute path, got ${JSON.stringify(file)}: every process opens it`);
  const mode = options.mode ?? '0600';
  if (!/^0?[0-7]{3}$/.test(mode))
    throw new InvalidRequest(`invalid mode ${JSON.stringify(mode)}: expected e.g. "0600"`);
  return { file, mode: Number.parseInt(mode, 8) };
}

/** The body of `PUT sys/audit/:path`: Vault's fields; `options` holds strings. */
export function enableRequest(body: unknown): Omit<StoredDevice, 'path' | 'key'> {
  const input = body ?? {};
  if (!isPlainObject(input)) throw new InvalidRequest('the request body must be a JSON object');
  const { type, description = '', options = {}, local = false } = input;
  if (typeof type !== 'string' || type === '') throw new InvalidRequest('"type" is required');
  if (type !== 'file') throw new InvalidRequest(`unknown backend type: ${JSON.stringify(type)}: only "file" is served`);
  if (typeof description !== 'string') throw new InvalidRequest('"description" must be a string');
  if (typeof local !== 'boolean') throw new InvalidRequest('"local" must be a boolean');
  if (!isPlainObject(options) || !Object.values(options).every((value) => typeof value === 'string'))
    throw new InvalidRequest('"options" must map names to strings');
  fileOptions(options as Record<string, string>);
  return { type, description, local, options: options as Record<string, string> };
}

export class AuditTable {
  constructor(private readonly store: JsonStore) {}

  /** The devices now enabled, in the order they were enabled. */
  async read(): Promise<StoredDevice[]> {
    return this.#checked(await this.store.get<unknown>(TABLE_KEY));
  }

  /** Adds a device with a new key of its own; a path already in the table is refused. */
  async add(path: string, device: Omit<StoredDevice, 'path' | 'key'>): Promise<StoredDevice> {
    const added = { path, ...device, key: randomBytes(KEY_BYTES).toString('base64') };
    await this.store.update<unknown>(TABLE_KEY, (current) => {
      const devices = this.#checked(current);
      if (devices.some((stored) => stored.path === path)) throw new InvalidRequest('path already in use');
      return { devices: [...devices, added] };
    });
    return added;
  }

  /** Removes the device at `path`; none there is no error, as in Vault. */
  async remove(path: string): Promise<void> {
    await this.store.update<unknown>(TABLE_KEY, (current) => ({
      devices: this.#checked(current).filter((stored) => stored.path !== path),
    }));
  }

  #checked(stored: unknown): StoredDevice[] {
    if (stored === undefined) return [];
    const parsed = storedTable.safeParse(stored);
    if (!parsed.success) throw new InternalError(`stored audit table ${JSON.stringify(TABLE_KEY)} is corrupt`);
    return parsed.data.devices;
  }
}
