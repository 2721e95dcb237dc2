import { z } from 'zod';
import { decodeBase64 } from '../../lib/base64.js';
import { formatTimestamp } from '../../lib/time.js';
import type { AuthContext } from '../context/auth-context.js';
import { documentFolder, type StoredDocument } from '../context/stored-document.js';
import { canonicalRoleTag, parseRoleTag, ROLE_TAG_VERSION, type ParsedRoleTag } from '../roles/role-tag.js';
import type { StoredRole } from '../roles/role.js';

const denyListEntry = z.object({
  /** RFC 3339; set when the tag was first denied. */
  creation_time: z.string(),
  /** RFC 3339; tidy removes the entry once this plus the safety buffer has passed. */
  expiration_time: z.string(),
});

/**
 * A denied role tag: logins presenting it are refused until tidy removes the entry. Kept after the tag could last be
 * used (its own, its role's and the mount's longest max TTL), and answered by `GET roletag-denylist/<tag>`.
 *
 * @interface
 */
export type DenyListEntry = z.infer<typeof denyListEntry>;

/**
 * The role-tag deny list. Each entry's name is the unpadded base64url of the tag's canonical form (see
 * canonicalRoleTag), so the name is one path segment and every spelling of a tag finds the same entry.
 */
export const denyListDocuments = documentFolder({ folder: 'roletag-denylist/', shape: denyListEntry });

function denyListDocument(tag: ParsedRoleTag): StoredDocument<DenyListEntry> {
  return denyListDocuments.named(Buffer.from(canonicalRoleTag(tag)).toString('base64url'));
}

function decodeAnyBase64(text: string): string | undefined {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = standard.length % 4 === 0 ? standard : standard + '='.repeat(4 - (standard.length % 4));
  return decodeBase64(padded)?.toString('utf8');
}

/** The tag a deny-list path names: the raw tag value, or its base64 (standard or URL-safe). */
export function roleTagFromPath(value: string): string {
  if (value.startsWith(`${ROLE_TAG_VERSION}:`)) return value;
  const decoded = decodeAnyBase64(value);
  return decoded !== undefined && decoded.startsWith(`${ROLE_TAG_VERSION}:`) ? decoded : value;
}

/** Whether the tag (in any spelling) is on the deny list. */
export async function isRoleTagDenied(context: AuthContext, tag: ParsedRoleTag): Promise<boolean> {
  return context.has(denyListDocument(tag));
}

export async function readDenyListEntry(context: AuthContext, tag: ParsedRoleTag): Promise<DenyListEntry | undefined> {
  return context.read(denyListDocument(tag));
}

/**
 * Denies a verified tag until it can no longer matter: now plus the longest of the tag's max TTL, the role's
 * token_max_ttl and the mount maximum (the longest, because the entry restricts access). A tag denied again keeps its
 * creation time and gets a fresh expiration.
 */
export async function denyRoleTag(context: AuthContext, tag: ParsedRoleTag, role: StoredRole): Promise<void> {
  const now = context.now();
  const lifetime = Math.max(tag.maxTtl, role.token.max_ttl, context.mountMaxTtl);
  await context.update(denyListDocument(tag), (current) => ({
    creation_time: current?.creation_time ?? formatTimestamp(now),
    expiration_time: formatTimestamp(now.getTime() + lifetime * 1000),
  }));
}

export async function deleteDenyListEntry(context: AuthContext, tag: ParsedRoleTag): Promise<void> {
  await context.delete(denyListDocument(tag));
}

/** The denied tags, in their canonical spelling. */
export async function listDeniedRoleTags(context: AuthContext): Promise<string[]> {
  const names = await context.list(denyListDocuments);
  return names.map((name) => Buffer.from(name, 'base64url').toString('utf8'));
}

/** Parses a tag named in a path for a read or delete; undefined when it is no tag at all (so it cannot be listed). */
export function roleTagForLookup(value: string): ParsedRoleTag | undefined {
  try {
    return parseRoleTag(roleTagFromPath(value));
  } catch {
    return undefined;
  }
}
