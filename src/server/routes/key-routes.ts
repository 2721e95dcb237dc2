// sys/rotate and sys/key-status: the data keys of encryption at rest, managed over Vault's API. Only a server whose
// storage is an EncryptedStorage has keys to manage; over any other storage both answer why not.
import { InvalidRequest } from '../../lib/errors.js';
import type { KeyringStatus } from '../../encryption/encrypted-storage.js';
import type { Storage } from '../../ports/storage.js';
import { envelope, noContent, type ApiResult } from '../http/wire.js';
import { withPutAsPost, type Route } from '../dispatch/route.js';

/** What these routes need of the storage: the members of `EncryptedStorage` that manage its keyring. */
export interface KeyManagement {
  rotate(): Promise<number>;
  keyringStatus(): Promise<KeyringStatus>;
}

const managesKeys = (storage: Storage): storage is Storage & KeyManagement =>
  typeof (storage as Partial<KeyManagement>).rotate === 'function' &&
  typeof (storage as Partial<KeyManagement>).keyringStatus === 'function';

export function keyRoutes(storage: Storage): Route[] {
  const keys = (): KeyManagement => {
    if (managesKeys(storage)) return storage;
    throw new InvalidRequest('this server stores its data unencrypted: it has no encryption keys to manage');
  };
  // Vault answers the key status both at the top level (older clients read it there) and under `data`.
  const status = async ({ requestId }: { requestId: string }): Promise<ApiResult> => {
    const current = await keys().keyringStatus();
    // Vault's `encryptions` counts the active term's seals across the cluster; no count is kept here, so it is absent.
    const data = { term: current.active, install_time: current.activeSince };
    return { status: 200, body: { ...data, ...envelope(requestId, { data }) } };
  };
  return [
    // A root-protected path in Vault: a new term changes how everything written from now on is sealed. Newer Vault
    // names it sys/rotate/keyring too.
    {
      pattern: /^sys\/rotate(?:\/keyring)?$/,
      sudo: true,
      methods: {
        POST: async () => {
          await keys().rotate();
          return noContent;
        },
      },
    },
    { pattern: /^sys\/key-status$/, methods: { GET: status } },
  ].map(withPutAsPost);
}
