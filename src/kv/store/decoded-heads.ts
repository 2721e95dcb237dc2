import { sameBytes } from '../../lib/bytes.js';
import { RecentMap } from '../../lib/recent-map.js';
import type { JsonStore } from '../../core/store/stored-json.js';
import { deepFreeze } from '../../lib/decoded-memo.js';
import type { EncodedHead, HeadTexts } from './head-records.js';
import { headFormat, type StoredMetadata } from '../documents/head-document.js';

/**
 * The decoded head records of the keys read or committed last, each with the exact bytes it was decoded from (or
 * encoded to). A head read whose bytes equal the remembered ones (a native byte comparison) answers the remembered
 * record instead of decoding and shape-checking the same bytes again: the storage read still happens every time, so
 * a change made by another process (other bytes) is never missed. Remembered records are deeply frozen, so no caller
 * can alter what a later read answers. Bounded: the oldest keys are forgotten first, which only costs a decode.
 */

const CAPACITY = 256;

interface Decoded {
  bytes: Uint8Array;
  record: StoredMetadata;
  /** The texts of its parts, for a record this process encoded (head-records.ts). */
  texts?: HeadTexts;
}

/**
 * deepFreeze for a record encodeHead wrote, whose entries and changes it froze: their lists are frozen without asking
 * each part again (Object.isFrozen is a call into the engine, and a head has dozens of parts).
 */
function freezeEncoded(record: StoredMetadata): StoredMetadata {
  const fields = record as unknown as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if ((name === 'versions' || name === 'changes') && Array.isArray(value)) Object.freeze(value);
    else deepFreeze(value);
  }
  return Object.freeze(record);
}

export class DecodedHeads {
  private readonly heads = new RecentMap<string, Decoded>(CAPACITY);

  constructor(private readonly json: JsonStore) {}

  /** The record the bytes stored under `key` decode to (read through the head's format: upgraded and checked). */
  decode(key: string, bytes: Uint8Array): StoredMetadata {
    const known = this.heads.get(key);
    if (known && sameBytes(known.bytes, bytes)) return known.record;
    const record = headFormat.decode(bytes, key);
    this.remember(key, bytes, record);
    return record;
  }

  /** The record last decoded or committed under `key`, without reading storage: it may be stale. */
  remembered(key: string): StoredMetadata | undefined {
    return this.heads.get(key)?.record;
  }

  /** The head under `key`, read from storage now; chained with `.then`, as every operation on a key reads it. */
  read(key: string): Promise<StoredMetadata | undefined> {
    return this.json.getRaw(key).then((bytes) => (bytes === undefined ? undefined : this.decode(key, bytes)));
  }

  /** The remembered record, with its parts' texts, when it is `record` and this process encoded it. */
  encoded(key: string, record: StoredMetadata | undefined): EncodedHead | undefined {
    const known = this.heads.get(key);
    return known?.record === record && known?.texts ? { record: known.record, texts: known.texts } : undefined;
  }

  /**
   * Remembers a record with the bytes it was stored as (its `bytes` must not be altered afterwards), and the texts of
   * its parts when encodeHead wrote it (which froze its parts).
   */
  remember(key: string, bytes: Uint8Array, record: StoredMetadata, texts?: HeadTexts): void {
    this.heads.set(key, { bytes, record: texts ? freezeEncoded(record) : deepFreeze(record), texts });
  }
}
