/**
 * The root key port: whatever protects the keyring of encryption at rest. The keyring's own key is wrapped by the root
 * key and stored next to the data; the root key itself is never stored there. A provider is a local 32-byte key or a
 * remote key service (AWS KMS) that never hands its key out.
 */
export interface RootKeyProvider {
  /** Encrypts a 32-byte key; the answer is opaque and stored as is. */
  wrapKey(key: Uint8Array): Promise<Uint8Array>;
  /**
   * Decrypts what `wrapKey` answered. Rejects with `WrongRootKey` when the bytes were wrapped by another root key (or
   * were altered), and with `RootKeyUnavailable` when the provider cannot answer now.
   */
  unwrapKey(wrapped: Uint8Array): Promise<Uint8Array>;
}
