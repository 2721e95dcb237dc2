// The server's own secret keys (the token-hashing key and the audit HMAC key): random, made once, kept in the
// configured storage (sealed by EncryptedStorage when the server is wired with it), so every process over one storage
// and every restart agree on them.
import { randomBytes } from 'node:crypto';
import { InternalError } from '../../lib/errors.js';
import { type JsonStore } from '../../core/store/stored-json.js';

const KEY_BYTES = 32;

/** The key stored at `key`, made and stored on first use; when processes race, the first one stored wins. */
export async function serverKey(store: JsonStore, key: string): Promise<Buffer> {
  const { next } = await store.update<{ key: string }>(
    key,
    (current) => current ?? { key: randomBytes(KEY_BYTES).toString('base64') },
  );
  const bytes = Buffer.from(next?.key ?? '', 'base64');
  if (bytes.length !== KEY_BYTES) throw new InternalError(`stored server key ${JSON.stringify(key)} is corrupt`);
  return bytes;
}
