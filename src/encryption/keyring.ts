/**
 * The keyring: the data keys of every live term, the active term new writes use, and the terms already retired. It is
 * stored as one record in the wrapped storage:
 *
 *   bytes 0-1   length L of the wrapped keyring key, unsigned big-endian
 *   bytes 2-    the keyring key as the root key provider wrapped it (L bytes)
 *   then        the keyring document (JSON) sealed with the keyring key under term 0, bound to the record's key
 *
 * The keyring key stays the same for the life of the keyring, so rewriting the document never calls the root key
 * provider (a KMS) again; only opening a keyring does.
 */
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { SealedValueInvalid } from '../lib/errors.js';
import { open, seal, termOf } from './sealed-value.js';
import { ROOT_KEY_LENGTH } from './static-root-key.js';

/** Term 0 is the keyring key itself; data terms count from 1. */
export const KEYRING_TERM = 0;

const documentSchema = z.object({
  active: z.number().int().positive(),
  terms: z.array(z.object({ term: z.number().int().positive(), key: z.base64(), createdAt: z.string() })).min(1),
  retired: z.array(z.number().int().positive()),
});

export type KeyringDocument = z.infer<typeof documentSchema>;

/**
 * A term's key from its base64, decoded into an array of its own and wiped once the KeyObject holds the key:
 * Buffer.from would decode into Node's shared pool, where the bytes would stay readable through any pooled Buffer.
 */
function secretKeyOf(base64: string): KeyObject {
  const bytes = Buffer.alloc(Buffer.byteLength(base64, 'base64'));
  bytes.write(base64, 'base64');
  try {
    return createSecretKey(bytes);
  } finally {
    bytes.fill(0);
  }
}

export class Keyring {
  private readonly keys: Map<number, KeyObject>;

  constructor(readonly document: KeyringDocument) {
    this.keys = new Map(document.terms.map((entry) => [entry.term, secretKeyOf(entry.key)]));
  }

  get active(): number {
    return this.document.active;
  }

  get activeKey(): KeyObject {
    return this.keys.get(this.active) as KeyObject;
  }

  keyOf(term: number): KeyObject | undefined {
    return this.keys.get(term);
  }

  get terms(): number[] {
    return this.document.terms.map((entry) => entry.term);
  }

  isRetired(term: number): boolean {
    return this.document.retired.includes(term);
  }

  static first(now: Date): KeyringDocument {
    return { active: 1, terms: [newTerm(1, now)], retired: [] };
  }

  /** The document with a new active term, numbered after every term ever used. */
  rotated(now: Date): KeyringDocument {
    const next = Math.max(...this.terms, ...this.document.retired) + 1;
    return { ...this.document, active: next, terms: [...this.document.terms, newTerm(next, now)] };
  }

  /** The document without `terms` (never the active one): their key material is gone for good. */
  without(terms: readonly number[]): KeyringDocument {
    const dropped = terms.filter((term) => term !== this.active && this.keys.has(term));
    return {
      ...this.document,
      terms: this.document.terms.filter((entry) => !dropped.includes(entry.term)),
      retired: [...this.document.retired, ...dropped].sort((a, b) => a - b),
    };
  }
}

function newTerm(term: number, now: Date): KeyringDocument['terms'][number] {
  return { term, key: randomBytes(ROOT_KEY_LENGTH).toString('base64'), createdAt: now.toISOString() };
}

export function encodeRecord(
  wrapped: Uint8Array,
  keyringKey: KeyObject,
  recordKey: string,
  document: KeyringDocument,
): Uint8Array {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(wrapped.length);
  const sealed = seal(keyringKey, KEYRING_TERM, recordKey, Buffer.from(JSON.stringify(document)));
  return Buffer.concat([length, wrapped, sealed]);
}

function corrupt(recordKey: string, reason: string): SealedValueInvalid {
  return new SealedValueInvalid(`the keyring at ${JSON.stringify(recordKey)} ${reason}`);
}

/** The wrapped keyring key of a record, to unwrap (or recognise) before the document can be opened. */
export function wrappedKeyOf(record: Uint8Array, recordKey: string): Uint8Array {
  const bytes = Buffer.from(record.buffer, record.byteOffset, record.byteLength);
  if (bytes.length < 2 || bytes.length < 2 + bytes.readUInt16BE(0)) throw corrupt(recordKey, 'is truncated');
  return bytes.subarray(2, 2 + bytes.readUInt16BE(0));
}

export function decodeRecord(record: Uint8Array, keyringKey: KeyObject, recordKey: string): KeyringDocument {
  const sealed = record.subarray(2 + wrappedKeyOf(record, recordKey).length);
  if (termOf(sealed, recordKey) !== KEYRING_TERM) throw corrupt(recordKey, 'is not sealed by a keyring key');
  const parsed = documentSchema.safeParse(
    JSON.parse(Buffer.from(open(keyringKey, sealed, recordKey)).toString('utf8')),
  );
  if (!parsed.success || !parsed.data.terms.some((entry) => entry.term === parsed.data.active)) {
    throw corrupt(recordKey, 'has an invalid document');
  }
  return parsed.data;
}
