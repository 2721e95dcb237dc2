import type { Clock } from '../../ports/clock.js';
import type { JsonStore } from '../../core/store/stored-json.js';
import { readDocument } from '../documents/document-format.js';
import type { StorageLayout } from '../documents/storage-layout.js';
import { unversionedFormat, type StoredUnversioned } from '../documents/unversioned-document.js';

/**
 * The keys of a KV version 1 engine: one document each, written whole by every write. Nothing is read before a write
 * (the last write wins, as in Vault), so several processes need no coordination.
 */
export class UnversionedKeys {
  constructor(
    private readonly json: JsonStore,
    private readonly layout: StorageLayout,
    private readonly clock: Clock,
  ) {}

  read(path: string): Promise<StoredUnversioned | undefined> {
    return readDocument(this.json, unversionedFormat, this.layout.unversioned(path));
  }

  async exists(path: string): Promise<boolean> {
    return (await this.json.getRaw(this.layout.unversioned(path))) !== undefined;
  }

  write(path: string, data: Record<string, unknown>): Promise<void> {
    const document = unversionedFormat.write({ data, written: this.clock.now().getTime() });
    return this.json.put(this.layout.unversioned(path), document);
  }

  delete(path: string): Promise<void> {
    return this.json.delete(this.layout.unversioned(path));
  }
}
