/**
 * A root key held by the process itself: 32 bytes given directly, as base64, or in a key file. It wraps the keyring's
 * key with AES-256-GCM in the same sealed format as the values.
 */
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { decodeBase64 } from '../lib/base64.js';
import { createPrivateFile } from '../lib/private-file.js';
import { SealedValueInvalid, WrongRootKey } from '../lib/errors.js';
import type { RootKeyProvider } from '../ports/root-key.js';
import { open, seal, termOf } from './sealed-value.js';

/** The length of a root key in bytes (AES-256). */
export const ROOT_KEY_LENGTH = 32;

/** What the wrap binds to, so that a value sealed for a storage key can never pass for a wrapped key. */
const WRAP_CONTEXT = 'strongroom root key wrap';

/** A 32-byte key as a KeyObject; anything else is a programming or configuration error, refused at once. */
export function aesKey(bytes: Uint8Array, what: string): KeyObject {
  if (!(bytes instanceof Uint8Array) || bytes.length !== ROOT_KEY_LENGTH) {
    throw new TypeError(`${what} must be exactly ${ROOT_KEY_LENGTH} bytes`);
  }
  return createSecretKey(bytes);
}

/**
 * A root key held by this process: 32 bytes given directly, as base64 (`fromBase64`) or in a key file (`fromFile`),
 * wrapping the keyring's key with AES-256-GCM. Keep it out of the data directory and its backups: with the data, it
 * opens every value.
 */
export class StaticRootKey implements RootKeyProvider {
  private readonly key: KeyObject;

  /** Takes exactly 32 bytes (a TypeError otherwise) and keeps its own copy: the caller may wipe `key` afterwards. */
  constructor(key: Uint8Array) {
    this.key = aesKey(key, 'the root key');
  }

  /** From standard base64 of 32 bytes (for example an environment variable). */
  static fromBase64(text: string): StaticRootKey {
    const rule = `the root key must be ${ROOT_KEY_LENGTH} bytes in standard base64 (44 characters)`;
    // JavaScript callers, and `process.env.X!` in TypeScript, can hand over no text at all.
    if (typeof text !== 'string') throw new TypeError(`${rule}; got no text (is the variable holding it set?)`);
    const bytes = decodeBase64(text.trim());
    try {
      if (!bytes || bytes.length !== ROOT_KEY_LENGTH) throw new TypeError(rule);
      return new StaticRootKey(bytes);
    } finally {
      // The decoded bytes may sit in Node's shared Buffer pool; the KeyObject holds its own copy.
      bytes?.fill(0);
    }
  }

  /** From a file holding the key in base64 (as `loadOrCreateRootKeyFile` writes it) or as 32 raw bytes. */
  static async fromFile(path: string): Promise<StaticRootKey> {
    const content = await readFile(path);
    if (content.length === ROOT_KEY_LENGTH) return new StaticRootKey(content);
    try {
      return StaticRootKey.fromBase64(content.toString('latin1'));
    } catch {
      throw new TypeError(`the root key file ${path} must hold ${ROOT_KEY_LENGTH} bytes, raw or in base64`);
    }
  }

  async wrapKey(key: Uint8Array): Promise<Uint8Array> {
    return seal(this.key, 0, WRAP_CONTEXT, key);
  }

  async unwrapKey(wrapped: Uint8Array): Promise<Uint8Array> {
    try {
      termOf(wrapped, WRAP_CONTEXT);
      return open(this.key, wrapped, WRAP_CONTEXT);
    } catch (error) {
      if (!(error instanceof SealedValueInvalid)) throw error;
      throw new WrongRootKey(
        'the root key does not open the stored keyring: it is not the key this storage was encrypted with (or the keyring was altered)',
      );
    }
  }
}

/**
 * Reads the root key file at `path`, or creates it with a fresh random key, readable by its owner only (mode 0600),
 * when it does not exist (and its missing folders, mode 0700). `created` tells a server to warn that the key sits next
 * to the data it protects.
 */
export async function loadOrCreateRootKeyFile(path: string): Promise<{ key: StaticRootKey; created: boolean }> {
  const file = await createPrivateFile(path);
  if (!file) return { key: await StaticRootKey.fromFile(path), created: false };
  const bytes = randomBytes(ROOT_KEY_LENGTH);
  try {
    await file.writeFile(`${bytes.toString('base64')}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  return { key: new StaticRootKey(bytes), created: true };
}
