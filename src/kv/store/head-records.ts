import { deepFreeze } from '../../lib/decoded-memo.js';
import { headFormat, type StoredMetadata } from '../documents/head-document.js';

/**
 * The head records a change commits, made cheap to keep and to encode, as every write makes one:
 * - laid out in one fixed shape (`laidOut`). A record built by spreading another gets a hidden class of its own, which
 *   makes freezing it (DecodedHeads keeps committed heads frozen) cost more than building it, and every function that
 *   reads such records slower;
 * - encoded (`encodeHead`) to the bytes JSON.stringify writes, for less work. Most of a head's text is its version
 *   entries and its change history, and a change carries all but one or two of them over from the record it read (the
 *   same objects: records are built by copying only what changes). The text of each entry and change of an encoded head
 *   is kept with it (HeadTexts), and the next head's encoding reuses the text of every part it carries over: every
 *   part an encoding writes is frozen, and so is every part of the remembered head it reads, so a text stays true.
 */

const encoder = new TextEncoder();

/** The text of each entry (`versions`) and change (`changes`) of an encoded head, in the record's order. */
export interface HeadTexts {
  readonly versions: readonly string[];
  readonly changes: readonly string[];
}

/** A head encoded earlier, whose parts' texts an encoding may reuse. */
export interface EncodedHead {
  readonly record: StoredMetadata;
  readonly texts: HeadTexts;
}

/**
 * The texts of field names, kept for the head's own fields. Bounded: a stored head may carry fields this version does
 * not know (kept as read), and names that come from stored data must not grow a process-wide table without end.
 */
const nameTexts = new Map<string, string>();
const MAX_NAME_TEXTS = 64;

function nameText(name: string): string {
  let text = nameTexts.get(name);
  if (text === undefined) {
    text = `${JSON.stringify(name)}:`;
    if (nameTexts.size < MAX_NAME_TEXTS) nameTexts.set(name, text);
  }
  return text;
}

function valueText(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/**
 * The JSON text of a list of parts, each part's text written into `texts`. A part that is the very object of the
 * earlier list (`before`, whose texts are `beforeTexts`) reuses its text. Carried-over parts keep their order and a
 * change drops parts at the start (pruning, a full history) and adds them at the end, so the parts are compared by
 * position once it is known where the list starts in the earlier one; a part found elsewhere is only written again.
 */
function listText(
  parts: readonly unknown[],
  texts: string[],
  before: readonly unknown[] = [],
  beforeTexts: readonly string[] = [],
): string {
  const shift = parts.length === 0 ? -1 : before.indexOf(parts[0]);
  let text = '[';
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    let partText = shift >= 0 && before[index + shift] === part ? beforeTexts[index + shift] : undefined;
    if (partText === undefined) {
      // As JSON.stringify writes a list: what it cannot write (undefined) is null.
      partText = JSON.stringify(part) ?? 'null';
      deepFreeze(part);
    }
    texts.push(partText);
    text += (index === 0 ? '' : ',') + partText;
  }
  return `${text}]`;
}

/** The fields in one order (absent optional ones as undefined), then any a newer release added, as the head is stored. */
export function laidOut(record: StoredMetadata): StoredMetadata {
  const out: StoredMetadata = {
    created: record.created,
    updated: record.updated,
    current_version: record.current_version,
    oldest_version: record.oldest_version,
    max_versions: record.max_versions,
    cas_required: record.cas_required,
    delete_version_after: record.delete_version_after,
    destroy_version_after: record.destroy_version_after,
    custom_metadata: record.custom_metadata,
    metadata_version: record.metadata_version,
    metadata_cas_required: record.metadata_cas_required,
    last_updated_by: record.last_updated_by,
    changes: record.changes,
    revision: record.revision,
    spilled: record.spilled,
    documents_from: record.documents_from,
    versions: record.versions,
    garbage: record.garbage,
    retired: record.retired,
  };
  for (const name in record) {
    // Defined, not assigned: a field named __proto__ stays a field.
    if (!Object.hasOwn(out, name))
      Object.defineProperty(out, name, {
        value: (record as unknown as Record<string, unknown>)[name],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return headFormat.write(out);
}

/** The record's JSON text, as JSON.stringify writes it, and the texts of its parts (see the file's comment). */
export function headText(record: StoredMetadata, previous?: EncodedHead): { text: string; texts: HeadTexts } {
  const fields = record as unknown as Record<string, unknown>;
  const texts = { versions: [] as string[], changes: [] as string[] };
  let text = '';
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    let encoded: string | undefined;
    if (name === 'versions' && Array.isArray(value))
      encoded = listText(value, texts.versions, previous?.record.versions, previous?.texts.versions);
    else if (name === 'changes' && Array.isArray(value))
      encoded = listText(value, texts.changes, previous?.record.changes, previous?.texts.changes);
    else encoded = valueText(value);
    // JSON.stringify leaves out fields it cannot write (undefined): so does this.
    if (encoded === undefined) continue;
    text += (text === '' ? '{' : ',') + nameText(name) + encoded;
  }
  return { text: text === '' ? '{}' : `${text}}`, texts };
}

/**
 * The record's bytes and its parts' texts; `previous` must be deeply frozen (a remembered head). Every entry and change
 * of the record is frozen afterwards, so that its text stays true.
 */
export function encodeHead(record: StoredMetadata, previous?: EncodedHead): { bytes: Uint8Array; texts: HeadTexts } {
  const { text, texts } = headText(record, previous);
  return { bytes: encoder.encode(text), texts };
}
