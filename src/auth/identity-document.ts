import { z } from 'zod';
import { InvalidRequest } from '../core/errors.js';
import { parseTimestamp } from '../core/time.js';
import { isRegionName } from './region.js';

/** The fields of an instance identity document that the ec2 login uses (reference §3.4). */
export interface IdentityDocument {
  instanceId: string;
  accountId: string;
  region: string;
  /** The AMI the instance was launched from. */
  imageId: string;
  /** When the instance was last started; orders logins of one instance (nonce and migration checks). */
  pendingTime: Date;
}

// Identifiers end up in storage keys and cloud API calls: AWS's own shapes (i-0abc..., 123456789012, ami-...) fit,
// while a '/' or a control character from a document signed by a registered certificate cannot.
const identifier = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be a plain identifier');
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

const documentSchema = z.object({
  instanceId: identifier,
  accountId: identifier,
  region: z.string().refine(isRegionName, 'must be a region name such as us-east-1'),
  imageId: identifier,
  pendingTime: z
    .string()
    .regex(RFC3339, 'must be an RFC 3339 timestamp')
    .transform((text, ctx) => {
      const time = parseTimestamp(text);
      if (!time) ctx.addIssue({ code: 'custom', message: 'must be an RFC 3339 timestamp' });
      return time ?? new Date(0);
    }),
});

/**
 * Parses verified identity document bytes (from verifyPkcs7 or verifyIdentitySignature: never from unverified
 * input). Fields other than the five above are ignored. Bad JSON or a missing or malformed field is InvalidRequest
 * (400) naming the field.
 */
export function parseIdentityDocument(content: Uint8Array): IdentityDocument {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(content));
  } catch (error) {
    throw new InvalidRequest(`failed to parse the instance identity document: ${error instanceof Error ? error.message : 'invalid JSON'}`);
  }
  const parsed = documentSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const field = issue.path.map(String).join('.');
      return field ? `"${field}" ${issue.code === 'invalid_type' ? 'is missing or not a string' : issue.message}` : 'the document is not a JSON object';
    });
    throw new InvalidRequest(`invalid instance identity document: ${problems.join('; ')}`);
  }
  return parsed.data;
}
