/**
 * Rewrap: one pass over every key re-seals the entries of older terms with the active one, then the older terms are
 * retired (their keys dropped from the keyring). The pass stores a cursor after each batch, sealed with the keyring
 * key, so a crashed rewrap resumes after the last finished batch. A rotation during the pass starts a new pass: only a
 * pass that began under the active term has covered every entry of the older ones.
 */
import { z } from 'zod';
import { SealedValueInvalid } from '../lib/errors.js';
import type { Storage } from '../ports/storage.js';
import { KEYRING_TERM } from './keyring.js';
import type { KeyringStore } from './keyring-store.js';
import { keysAfter } from './key-walk.js';
import { open, seal, termOf } from './sealed-value.js';

/** Options of `EncryptedStorage.rewrap()`: how much one call does. */
export interface RewrapOptions {
  /** Keys read per batch (default 100); memory and the work lost to a crash stay within one batch. */
  batchSize?: number;
  /** Stop after this many batches (default: run to the end); call again to continue. */
  maxBatches?: number;
}

/** What one `EncryptedStorage.rewrap()` call did, and whether the rewrap is finished. */
export interface RewrapReport {
  /** Keys this call looked at. */
  visited: number;
  /** Entries this call re-sealed with the active term. */
  rewrapped: number;
  /** Terms this call retired. */
  retired: number[];
  /** Whether every older term is retired; false when `maxBatches` stopped the call first. */
  done: boolean;
}

export interface RewrapTarget {
  storage: Storage;
  keyring: KeyringStore;
  reserved: string;
  cursorKey: string;
  rewrapKey(key: string, active: number): Promise<boolean>;
}

const cursorSchema = z.object({ term: z.number().int().positive(), after: z.string().optional() });
type Cursor = z.infer<typeof cursorSchema>;

export async function runRewrap(target: RewrapTarget, options: RewrapOptions): Promise<RewrapReport> {
  const batchSize = options.batchSize ?? 100;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new TypeError('batchSize must be a positive integer');
  let batches = options.maxBatches ?? Number.POSITIVE_INFINITY;
  const report: RewrapReport = { visited: 0, rewrapped: 0, retired: [], done: false };
  for (;;) {
    const keyring = (await target.keyring.refresh()).keyring;
    if (keyring.terms.length === 1) {
      await target.storage.delete(target.cursorKey);
      return { ...report, done: true };
    }
    let cursor = await readCursor(target);
    if (cursor?.term !== keyring.active) cursor = { term: keyring.active };
    while (cursor.term === (await target.keyring.current()).active) {
      if (batches-- <= 0) return report;
      const page = await keysAfter(target.storage, cursor.after, batchSize);
      const keys = page.filter((key) => !key.startsWith(target.reserved));
      const done = await Promise.all(keys.map((key) => target.rewrapKey(key, cursor!.term)));
      report.visited += keys.length;
      report.rewrapped += done.filter(Boolean).length;
      if (page.length < batchSize) {
        await retireOlderThan(target, cursor.term, report);
        break;
      }
      cursor = { term: cursor.term, after: page[page.length - 1] as string };
      await writeCursor(target, cursor);
    }
  }
}

/** Retires every term but `term`, unless a rotation made another term active meanwhile (then a new pass is due). */
async function retireOlderThan(target: RewrapTarget, term: number, report: RewrapReport): Promise<void> {
  let retired: number[] = [];
  await target.keyring.update((keyring) => {
    if (keyring.active !== term) return undefined;
    retired = keyring.terms.filter((candidate) => candidate !== term);
    return keyring.without(retired);
  });
  report.retired.push(...retired);
}

async function readCursor(target: RewrapTarget): Promise<Cursor | undefined> {
  const stored = await target.storage.get(target.cursorKey);
  if (!stored) return undefined;
  // A cursor that does not open or parse only costs a pass from the start, never a skipped entry.
  try {
    if (termOf(stored, target.cursorKey) !== KEYRING_TERM) return undefined;
    const opened = open(await target.keyring.keyringKey(), stored, target.cursorKey);
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(opened).toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch (error) {
    if (error instanceof SealedValueInvalid || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

async function writeCursor(target: RewrapTarget, cursor: Cursor): Promise<void> {
  const sealed = seal(
    await target.keyring.keyringKey(),
    KEYRING_TERM,
    target.cursorKey,
    Buffer.from(JSON.stringify(cursor)),
  );
  await target.storage.put(target.cursorKey, sealed);
}
