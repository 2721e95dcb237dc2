// Barrel of the auth area: the public exports, one line per module.
export { AuthEngine } from './auth-engine.js';
export { DEFAULT_MOUNT_MAX_TTL, type AuthEngineOptions } from './auth-context.js';
export type { CertificateType, TrustedCertificate } from './trusted-certificate.js';
export { BUILTIN_CERTIFICATES } from './certificates/certificate-store.js';
export { ROLE_TAG_VERSION, MAX_ROLE_TAG_LENGTH, parseRoleTag, type RoleTag, type ParsedRoleTag } from './role-tag.js';
export type { AccessListEntry } from './accesslist.js';
export type { DenyListEntry } from './denylist.js';
export { verifyPkcs7, SHA1_DISABLED_MESSAGE, type Pkcs7Options, type VerifiedContent, type SignatureAlgorithmName } from './pkcs7.js';
export { verifyIdentitySignature } from './identity-signature.js';
export { parseIdentityDocument, type IdentityDocument } from './identity-document.js';
export { parsePrincipalArn, iamEntityFromCallerIdentity, matchesArnPattern, type PrincipalArn, type PrincipalType, type IamEntity } from './arn.js';
export { MAX_NONCE_LENGTH } from './login/nonce.js';
