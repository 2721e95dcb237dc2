import { z } from 'zod';
import { InternalError } from '../../lib/errors.js';
import { isPlainObject } from '../../core/framework/fields.js';
import { CorruptDocument, decodeJson, type JsonStore } from '../../core/store/stored-json.js';

/**
 * How each kind of document the engine stores is defined (as Vault keeps one definition per stored entry, with its
 * upgradeRole): one zod shape, the type derived from it, and the steps that bring a document of an older format to
 * the current one. Every read of a document goes through its format: the upgrade steps from the document's own
 * version, then the shape. The version is the document's `format` field; a document without one is of format 1, which
 * is every document stored so far, so that the next change of a format is one upgrade step appended to its list.
 *
 * A document of format 1 is written without the field, byte for byte as every release wrote it; from format 2 on,
 * `write` adds it. (The auth method's stored-document.ts keys on `version`, which a KV entry document already holds:
 * the version number of the secret it describes.)
 */

/**
 * Turns a document of format N (as stored) into one of format N + 1. Steps run in order from a document's own format,
 * so each is written once against the format it knew.
 */
export type Upgrade = (older: Record<string, unknown>) => Record<string, unknown>;

/** The format of a document without a `format` field. */
const FIRST = 1;

/** A count the documents store: a version number, a revision, a setting of versions kept. */
export const storedCount = z.number().int().nonnegative();
/** A time the documents store: epoch milliseconds. */
export const storedTime = z.number();

/** How one kind of document is read and written. */
export interface DocumentFormat<T> {
  /** The format written now: one more than the number of upgrade steps. */
  readonly version: number;
  /**
   * A stored document (JSON-decoded, from `key`) brought to the current format, not yet checked: for a read that
   * checks only the part it answers. What is no object is answered as it is, for the shape to refuse.
   */
  upgrade(stored: unknown, key: string): unknown;
  /**
   * A stored document in the current format, checked against the shape. A document of the wrong shape is a
   * CorruptDocument (500) naming the key and the first field at fault, never a value; one of a format newer than this
   * engine knows is an InternalError. The stored object itself is answered, not zod's copy: fields a later release
   * added survive an update made by this one.
   */
  read(stored: unknown, key: string): T;
  /** `read` of the stored bytes. */
  decode(bytes: Uint8Array, key: string): T;
  /** What is stored: the document, with its format from format 2 on. */
  write(document: T): T;
}

interface FormatDefinition<S extends z.ZodObject> {
  /** The current format. It checks and never transforms. */
  shape: S;
  /** Upgrade steps, the first from format 1 to 2; none while every document is in its first format. */
  upgrades?: readonly Upgrade[];
  /**
   * Values for fields a document of the current format may lack: fields added to it after its first documents were
   * stored. A document lacking none is answered without a copy.
   */
  defaults?: Readonly<Partial<z.output<S>>>;
}

function corrupt(key: string, field: string): CorruptDocument {
  return new CorruptDocument(`stored entry ${JSON.stringify(key)} is corrupt: ${field} has the wrong shape`);
}

/** `value` if it has the shape, else a CorruptDocument naming `key` and the first field at fault. */
export function checked<T>(shape: z.ZodType<T>, value: unknown, key: string): T {
  const result = shape.safeParse(value);
  if (result.success) return value as T;
  const path = result.error.issues[0]?.path ?? [];
  throw corrupt(key, path.length === 0 ? 'the document itself' : `field ${path.map(String).join('.')}`);
}

/** The format of one kind of document, from its definition. */
export function documentFormat<S extends z.ZodObject>({
  shape,
  upgrades = [],
  defaults,
}: FormatDefinition<S>): DocumentFormat<z.output<S>> {
  const version = upgrades.length + FIRST;
  const defaulted = defaults ? Object.keys(defaults) : [];
  // Every read of a document of the current format that lacks no field answers it as decoded: no copy, no allocation.
  const upgrade = (stored: unknown, key: string): unknown => {
    if (!isPlainObject(stored)) return stored;
    const from = stored.format === undefined ? FIRST : stored.format;
    let document = stored;
    if (from !== version) {
      if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < FIRST) throw corrupt(key, 'field format');
      if (from > version)
        throw new InternalError(
          `stored entry ${JSON.stringify(key)} has format ${from}; this engine reads formats up to ${version}`,
        );
      document = upgrades.slice(from - FIRST).reduce((older, step) => step(older), stored);
    }
    for (const name of defaulted) if (document[name] === undefined) return { ...defaults, ...document };
    return document;
  };
  const read = (stored: unknown, key: string) => checked(shape, upgrade(stored, key), key) as z.output<S>;
  return {
    version,
    upgrade,
    read,
    decode: (bytes, key) => read(decodeJson<unknown>(bytes, key), key),
    write: (document) => (version === FIRST ? document : { ...document, format: version }),
  };
}

/** The document stored under `key`, read through its format; undefined when there is none. */
export function readDocument<T>(
  json: JsonStore,
  format: Pick<DocumentFormat<T>, 'decode'>,
  key: string,
): Promise<T | undefined> {
  // `.then` rather than an async function: every read of a version's data passes here (lib/calls.ts).
  return json.getRaw(key).then((bytes) => (bytes === undefined ? undefined : format.decode(bytes, key)));
}
