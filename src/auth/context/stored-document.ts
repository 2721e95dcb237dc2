import type { z } from 'zod';
import { InternalError } from '../../lib/errors.js';
import { isPlainObject } from '../../core/framework/fields.js';
import { CorruptDocument } from '../../core/store/stored-json.js';

/**
 * One definition per kind of stored document (as Vault keeps one per stored entry, with its upgradeRole): its shape,
 * where it is stored, and the steps that bring a document of an older format to the current one. Every document is
 * written with its format `version`; every one is read through its format, so that the next change of a format is one
 * upgrade step appended to its list.
 */

/**
 * Turns a document of format N (as stored, without its `version`) into one of format N + 1. Steps run in order from a
 * document's own version, so each is written once against the format it knew.
 */
export type Upgrade = (older: Record<string, unknown>) => Record<string, unknown>;

/**
 * The format a document carries no `version` in: release 0.1 wrote every document but roles without one (roles
 * carried 1), and its formats are the first of each kind.
 */
const UNVERSIONED = 1;

/** How one kind of document is read and written. */
export interface DocumentFormat<T> {
  /** The version written now: one more than the number of upgrade steps. */
  readonly version: number;
  /**
   * A stored document (JSON-decoded, from `key`) in the current format: upgraded from its version, checked against the
   * shape, without its `version`. A document of the wrong shape is a CorruptDocument (500) naming the key and the
   * first field at fault, never a value; one of a version newer than this engine knows is an InternalError.
   */
  read(stored: unknown, key: string): T;
  /** What is stored: the document with the current version. */
  write(document: T): Record<string, unknown>;
}

/** One stored document: its key, relative to the storage prefix, and its format. */
export interface StoredDocument<T> {
  readonly key: string;
  readonly format: DocumentFormat<T>;
}

/** A storage folder holding one document of a kind per name. */
export interface DocumentFolder<T> {
  /** Relative to the storage prefix; ends in '/'. */
  readonly folder: string;
  readonly format: DocumentFormat<T>;
  /** The document of that name; the caller checks that the name is one path segment. */
  named(name: string): StoredDocument<T>;
}

interface FormatDefinition<S extends z.ZodObject> {
  /**
   * The current format. It checks and never transforms: a read answers the stored object itself, so that fields a
   * later release adds to the current format survive an update made by this one.
   */
  shape: S;
  /** Upgrade steps, the first from format 1 to 2; none while every document is in its first format. */
  upgrades?: readonly Upgrade[];
  /** Values for fields a document of the current format may lack (fields that came after it was first stored). */
  defaults?: Readonly<z.output<S>>;
}

function corrupt(key: string, path: readonly PropertyKey[]): CorruptDocument {
  const field = path.length === 0 ? 'the document itself' : `field ${path.map(String).join('.')}`;
  return new CorruptDocument(`stored entry ${JSON.stringify(key)} is corrupt: ${field} has the wrong shape`);
}

function documentFormat<S extends z.ZodObject>({
  shape,
  upgrades = [],
  defaults,
}: FormatDefinition<S>): DocumentFormat<z.output<S>> {
  const version = upgrades.length + 1;
  return {
    version,
    read(stored, key) {
      let document = stored;
      if (isPlainObject(stored)) {
        const { version: from = UNVERSIONED, ...fields } = stored;
        if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 1) throw corrupt(key, ['version']);
        if (from > version)
          throw new InternalError(
            `stored entry ${JSON.stringify(key)} has format version ${from}; this engine reads up to ${version}`,
          );
        const current = upgrades.slice(from - 1).reduce((older, upgrade) => upgrade(older), fields);
        document = defaults ? { ...defaults, ...current } : current;
      }
      const checked = shape.safeParse(document);
      if (!checked.success) throw corrupt(key, checked.error.issues[0]?.path ?? []);
      return document as z.output<S>;
    },
    write(document) {
      return { ...document, version };
    },
  };
}

/** The one document stored under `key` (config/client, say). */
export function storedDocument<S extends z.ZodObject>(
  definition: FormatDefinition<S> & { key: string },
): StoredDocument<z.output<S>> {
  return { key: definition.key, format: documentFormat(definition) };
}

/** The documents of one kind stored in `folder`, one per name (roles, say). */
export function documentFolder<S extends z.ZodObject>(
  definition: FormatDefinition<S> & { folder: string },
): DocumentFolder<z.output<S>> {
  const { folder } = definition;
  const format = documentFormat(definition);
  return { folder, format, named: (name) => ({ key: folder + name, format }) };
}
