import type { StoredMetadata } from './records.js';

/**
 * The head records a change commits, made cheap to keep and to encode, as every write makes one:
 * - laid out in one fixed shape (`laidOut`). A record built by spreading another gets a hidden class of its own, which
 *   makes freezing it (DecodedHeads keeps committed heads frozen) cost more than building it, and every function that
 *   reads such records slower;
 * - encoded (`encodeHead`) to the bytes JSON.stringify writes, for less work. Most of a head's text is its version
 *   entries and its change history, and a change carries all but one or two of them over from the record it read (the
 *   same objects: records are built by copying only what changes). Each entry's and change's text is therefore written
 *   once and kept with the object, which is frozen so that its text stays true; a head is then its top-level fields
 *   plus the kept texts. The texts are held weakly: they go with the records that use them.
 */

const encoder = new TextEncoder();

/** The fields that hold lists of flat, immutable parts (StoredVersion, StoredChange). */
const PART_LISTS = new Set(['versions', 'changes']);

const partTexts = new WeakMap<object, string>();
const nameTexts = new Map<string, string>();

function isFlat(part: object): boolean {
  for (const value of Object.values(part)) if (typeof value === 'object' && value !== null) return false;
  return true;
}

function partText(part: unknown): string {
  // Anything but a flat object (a field of a newer format, say) is written afresh each time, as JSON.stringify would.
  if (typeof part !== 'object' || part === null) return JSON.stringify(part) ?? 'null';
  let text = partTexts.get(part);
  if (text === undefined) {
    text = JSON.stringify(part);
    if (!isFlat(part)) return text;
    // Frozen, a flat part stays what its text says.
    Object.freeze(part);
    partTexts.set(part, text);
  }
  return text;
}

function listText(parts: readonly unknown[]): string {
  let text = '[';
  for (let index = 0; index < parts.length; index++) text += (index === 0 ? '' : ',') + partText(parts[index]);
  return `${text}]`;
}

function nameText(name: string): string {
  let text = nameTexts.get(name);
  if (text === undefined) {
    text = `${JSON.stringify(name)}:`;
    nameTexts.set(name, text);
  }
  return text;
}

function valueText(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/** The fields in one order (absent optional ones as undefined), then any a newer version of the format added. */
export function laidOut(record: StoredMetadata): StoredMetadata {
  const out: StoredMetadata = {
    created: record.created,
    updated: record.updated,
    current_version: record.current_version,
    oldest_version: record.oldest_version,
    max_versions: record.max_versions,
    cas_required: record.cas_required,
    delete_version_after: record.delete_version_after,
    custom_metadata: record.custom_metadata,
    metadata_version: record.metadata_version,
    metadata_cas_required: record.metadata_cas_required,
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
    if (!Object.hasOwn(out, name)) Object.defineProperty(out, name, { value: (record as unknown as Record<string, unknown>)[name], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function headText(record: StoredMetadata): string {
  const fields = record as unknown as Record<string, unknown>;
  let text = '';
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    const encoded = PART_LISTS.has(name) && Array.isArray(value) ? listText(value) : valueText(value);
    // JSON.stringify leaves out fields it cannot write (undefined): so does this.
    if (encoded === undefined) continue;
    text += (text === '' ? '{' : ',') + nameText(name) + encoded;
  }
  return text === '' ? '{}' : `${text}}`;
}

export function encodeHead(record: StoredMetadata): Uint8Array {
  return encoder.encode(headText(record));
}
