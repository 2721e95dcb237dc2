// Barrel of the auth area: what an embedder of AuthMethod sees (its options and the shapes it stores and answers).
export { DEFAULT_MOUNT_MAX_TTL, type AuthEngineOptions } from './context/engine-options.js';
export type { CertificateType, TrustedCertificate } from './pkcs7/trusted-certificate.js';
export type { RoleTag, ParsedRoleTag } from './roles/role-tag.js';
export type { AccessListEntry } from './lists/accesslist.js';
export type { DenyListEntry } from './lists/denylist.js';
