// Barrel of encryption at rest: the barrier storage and the local root key.
export { EncryptedStorage, type EncryptedStorageOptions, type KeyringStatus } from './encrypted-storage.js';
export type { RewrapOptions, RewrapReport } from './rewrap.js';
export { StaticRootKey, loadOrCreateRootKeyFile, ROOT_KEY_LENGTH } from './static-root-key.js';
