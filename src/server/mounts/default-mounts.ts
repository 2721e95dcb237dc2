// What an absent table stands for: the mounts every server had before the table existed, at their data's prefixes.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Storage } from '../../ports/storage.js';
import type { MountDefinition } from './mount-definition.js';

/** Vault's accessor form: the mount's table and type, and eight hex digits. */
export const newAccessor = (type: string, auth: boolean) =>
  `${auth ? 'auth_' : ''}${type}_${randomBytes(4).toString('hex')}`;

/** Where a new mount keeps its data: by its uuid, never by its path (which a remount changes), as Vault does. */
export const storagePrefixFor = (uuid: string, auth: boolean) => `${auth ? 'auth' : 'logical'}/${uuid}/`;

/**
 * `secret/` (KV version 2), and one AWS auth mount, whose data lives at `auth/cloud/` (where it always did, and where
 * createServer's `auth` engine reads it). It is mounted at `auth/aws/`, where Vault's own is and `vault login
 * -method=aws` asks; a storage that already holds data at `auth/cloud/` keeps it mounted at `auth/cloud/`, so that its
 * clients, roles and tokens go on working unchanged.
 */
export async function defaultMounts(storage: Storage): Promise<MountDefinition[]> {
  const earlier = (await storage.list('auth/cloud/')).length > 0;
  const base = { options: null, defaultLeaseTtl: 0, maxLeaseTtl: 0 };
  return [
    {
      ...base,
      uuid: randomUUID(),
      path: 'secret/',
      type: 'kv',
      description: 'key/value secret storage',
      accessor: newAccessor('kv', false),
      storagePrefix: 'secret/',
      options: { version: '2' },
    },
    {
      ...base,
      uuid: randomUUID(),
      path: earlier ? 'auth/cloud/' : 'auth/aws/',
      type: 'aws',
      description: 'cloud identity auth method',
      accessor: newAccessor('aws', true),
      storagePrefix: 'auth/cloud/',
    },
  ];
}
