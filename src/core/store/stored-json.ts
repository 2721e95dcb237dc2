import type { z } from 'zod';
import type { Storage, StorageOperation } from '../../ports/storage.js';
import { sameBytes } from '../../lib/bytes.js';
import type { DecodedMemo } from '../../lib/decoded-memo.js';
import { InternalError, StorageUnavailable } from '../../lib/errors.js';
import { promiseOf } from '../../lib/calls.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/**
 * A stored document that is not JSON, or not of the shape its key holds (500). It names the key and the first field
 * at fault, never a value: the document may hold secrets.
 */
export class CorruptDocument extends InternalError {}

/** Decodes a stored document without checking its shape (callers that know what they read). */
export function decodeJson<T>(bytes: Uint8Array, key: string): T {
  try {
    return JSON.parse(decoder.decode(bytes)) as T;
  } catch {
    // No cause: JSON.parse quotes the text around a syntax error, and the text may be a stored secret.
    throw new CorruptDocument(`stored entry ${JSON.stringify(key)} is corrupt`);
  }
}

/** The shape the document under a key must have; undefined for keys without a rule. */
export type StoredShapes = (key: string) => z.ZodType | undefined;

function fieldOf(issue: z.core.$ZodIssue | undefined): string {
  const path = issue?.path ?? [];
  return path.length === 0 ? 'the document itself' : `field ${path.map(String).join('.')}`;
}

/** Give up on an optimistic update after this many conflicting writers in a row. */
const MAX_CONFLICT_RETRIES = 64;

/** What an update function may answer: the new value, `undefined` to delete, or `unchanged` to write nothing. */
export const unchanged: unique symbol = Symbol('unchanged');

export interface UpdateResult<T> {
  previous: T | undefined;
  next: T | undefined;
  written: boolean;
}

/**
 * JSON documents over the Storage port. Storage failures surface as InternalError (500) with the cause kept for
 * logging but never in the message.
 */
export class JsonStore {
  /** `shapes` gives the shape documents must have when read, so that a wrong one is a clear 500, not a TypeError. */
  constructor(
    readonly storage: Storage,
    private readonly shapes: StoredShapes = () => undefined,
  ) {}

  /** A stored document, checked against its key's shape. */
  decode<T>(bytes: Uint8Array, key: string): T {
    const value = decodeJson<unknown>(bytes, key);
    const checked = this.shapes(key)?.safeParse(value);
    if (checked && !checked.success) {
      throw new CorruptDocument(
        `stored entry ${JSON.stringify(key)} is corrupt: ${fieldOf(checked.error.issues[0])} has the wrong shape`,
      );
    }
    // The stored value, not zod's output: fields a newer version added are kept.
    return value as T;
  }

  // `call` turns storage failures into InternalError: no layer of its own is needed around it.
  getRaw(key: string): Promise<Uint8Array | undefined> {
    return this.call('read', () => this.storage.get(key));
  }

  async get<T>(key: string): Promise<T | undefined> {
    const bytes = await this.getRaw(key);
    return bytes === undefined ? undefined : this.decode<T>(bytes, key);
  }

  /**
   * The document under `key` made into a value by `make`, through `memo`: read from storage every time, and decoded,
   * checked and made again only when its bytes differ from those `memo` last saw under the key.
   */
  getMemoized<T>(key: string, memo: DecodedMemo<T>, make: (stored: unknown) => T): Promise<T | undefined> {
    return this.getRaw(key).then((bytes) =>
      bytes === undefined ? undefined : memo.decode(key, bytes, (read) => make(this.decode(read, key))),
    );
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.call('write', () => this.storage.put(key, encodeJson(value)));
  }

  async delete(key: string): Promise<void> {
    await this.call('delete', () => this.storage.delete(key));
  }

  /** Deletes the document of each item, all at once; answers the items whose deletion failed, for a later retry. */
  async deleteEach<T>(items: readonly T[], keyOf: (item: T) => string): Promise<T[]> {
    if (items.length === 0) return [];
    const results = await Promise.allSettled(items.map((item) => this.delete(keyOf(item))));
    return items.filter((_, index) => results[index]?.status === 'rejected');
  }

  list(prefix: string): Promise<string[]> {
    return this.call('list', () => this.storage.list(prefix));
  }

  /**
   * Every key below `prefix` ('' or ending in '/'), relative to it, in byte order: in pages of `page` where the storage
   * lists recursively, else folder by folder.
   */
  async *keysBelow(prefix: string, page = 1000): AsyncGenerator<string> {
    const listPage = this.storage.listPage?.bind(this.storage);
    if (listPage) {
      for (let after: string | undefined; ;) {
        const names = await this.call('list', () =>
          listPage(prefix, { recursive: true, limit: page, ...(after === undefined ? {} : { after }) }),
        );
        yield* names;
        if (names.length < page) return;
        after = names.at(-1);
      }
    }
    for (const name of await this.list(prefix)) {
      if (!name.endsWith('/')) yield name;
      else for await (const below of this.keysBelow(prefix + name, page)) yield name + below;
    }
  }

  /** Whether the storage can apply several conditional puts and deletes all or nothing. */
  get canCommit(): boolean {
    return typeof this.storage.commit === 'function';
  }

  /** The storage's atomic commit (check `canCommit` first); false when a condition did not hold. */
  async commit(operations: readonly StorageOperation[]): Promise<boolean> {
    const commit = this.storage.commit?.bind(this.storage);
    if (!commit) throw new InternalError('the storage has no atomic commit');
    return this.call('commit', () => commit(operations));
  }

  /**
   * Deletes the key only if it still holds `expected`, atomically when the storage has compareAndDelete; otherwise
   * after a read, which callers serialise in-process.
   */
  async deleteIfUnchanged(key: string, expected: Uint8Array): Promise<boolean> {
    if (this.storage.compareAndDelete)
      return this.settled(key, undefined, () => this.deleteBytesIfUnchanged(key, expected));
    const stored = await this.getRaw(key);
    if (stored === undefined || !sameBytes(stored, expected)) return false;
    await this.delete(key);
    return true;
  }

  /** Whether the storage can commit read-modify-writes atomically across processes. */
  get atomic(): boolean {
    return typeof this.storage.compareAndPut === 'function';
  }

  /**
   * Writes `value` only if the key still holds `expected` (undefined = absent). Without compareAndPut on the storage
   * this is a plain put: callers serialise in-process with a KeyedMutex.
   */
  async putIfUnchanged(key: string, expected: Uint8Array | undefined, value: unknown): Promise<boolean> {
    return this.putBytesIfUnchanged(key, expected, encodeJson(value));
  }

  /** The delete twin of putBytesIfUnchanged: conditional where the storage can be, else plain (callers serialise). */
  private async deleteBytesIfUnchanged(key: string, expected: Uint8Array): Promise<boolean> {
    const cad = this.storage.compareAndDelete?.bind(this.storage);
    if (!cad) {
      await this.delete(key);
      return true;
    }
    return this.call('delete', () => cad(key, expected));
  }

  private async putBytesIfUnchanged(
    key: string,
    expected: Uint8Array | undefined,
    bytes: Uint8Array,
  ): Promise<boolean> {
    const cas = this.storage.compareAndPut?.bind(this.storage);
    if (!cas) {
      await this.call('write', () => this.storage.put(key, bytes));
      return true;
    }
    return this.call('write', () => cas(key, expected, bytes));
  }

  /**
   * Read-modify-write of one document. With compareAndPut the write is committed only if nobody changed the document
   * since it was read, and `change` is re-run on conflict; `change` must therefore be free of side effects.
   */
  async update<T>(
    key: string,
    change: (current: T | undefined) => T | undefined | typeof unchanged | Promise<T | undefined | typeof unchanged>,
    options: { replaceCorrupt?: boolean } = {},
  ): Promise<UpdateResult<T>> {
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const raw = await this.getRaw(key);
      const previous =
        raw === undefined ? undefined : this.decodeOrReplace<T>(raw, key, options.replaceCorrupt ?? false);
      const next = await change(previous);
      if (next === unchanged) return { previous, next: previous, written: false };
      if (next === undefined) {
        if (raw === undefined) return { previous, next, written: false };
        // With compareAndDelete, a document changed since it was read is not removed: the change runs again instead.
        if (await this.settled(key, undefined, () => this.deleteBytesIfUnchanged(key, raw)))
          return { previous, next, written: true };
        continue;
      }
      const bytes = encodeJson(next);
      if (await this.settled(key, bytes, () => this.putBytesIfUnchanged(key, raw, bytes)))
        return { previous, next, written: true };
    }
    throw new InternalError(`too many concurrent writers on ${JSON.stringify(key)}`);
  }

  /** With `replace`, a corrupt document reads as absent, so that a write that sets it whole repairs it. */
  private decodeOrReplace<T>(raw: Uint8Array, key: string, replace: boolean): T | undefined {
    try {
      return this.decode<T>(raw, key);
    } catch (error) {
      if (replace && error instanceof CorruptDocument) return undefined;
      throw error;
    }
  }

  /**
   * Runs a commit. A storage may report a failure for a write that took effect (its answer was lost on the way): then
   * the key holds exactly what was written, and the commit counts as done rather than as a 500 that tells the caller
   * nothing happened (a login whose nonce was stored must hand that nonce out). Any other failure stands.
   */
  private async settled<T>(key: string, written: Uint8Array | undefined, commit: () => Promise<T>): Promise<T | true> {
    try {
      return await commit();
    } catch (error) {
      if (await this.holds(key, written)) return true;
      throw error;
    }
  }

  /** Whether the key holds exactly `bytes` (undefined: the key is absent); false when it cannot be read. */
  async holds(key: string, bytes: Uint8Array | undefined): Promise<boolean> {
    try {
      const stored = await this.storage.get(key);
      return stored === undefined || bytes === undefined ? stored === bytes : sameBytes(stored, bytes);
    } catch {
      return false;
    }
  }

  // `.then` rather than an async function: every storage call of the engines and the server passes here (lib/calls.ts).
  private call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    return promiseOf(run).then(undefined, (cause: unknown) => {
      // An unavailable storage stays so (503): the caller may try again.
      if (cause instanceof InternalError || cause instanceof StorageUnavailable) throw cause;
      throw new InternalError(`storage ${operation} failed`, { cause });
    });
  }
}
