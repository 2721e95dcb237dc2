import { unchanged } from '../core/stored-json.js';
import { now, type KvContext } from './context.js';
import { listKeys, type ListFields } from './listing.js';
import {
  applyMetadataPatch,
  applyMetadataWrite,
  casRequiredWarnings,
  hasMetadataFields,
  newMetadata,
  type MetadataPatch,
  type MetadataWrite,
} from './metadata.js';
import { keyMetadata, type KeyMetadata } from './views.js';

/** The operations on keys as a whole: metadata read, write, patch, delete, and listing. */

export type MetadataPatchOutcome = { state: 'missing' } | { state: 'patched'; warnings: string[] };

export class MetadataOperations {
  constructor(private readonly context: KvContext) {}

  async read(path: string): Promise<KeyMetadata | undefined> {
    const { keys } = this.context;
    return keys.consistent(async () => {
      const key = await keys.read(path);
      return key && keyMetadata({ ...key, versions: await keys.versions(path, key) });
    });
  }

  /** Creates the key when needed; a write with none of the four fields creates nothing. Never prunes. */
  async write(path: string, fields: MetadataWrite): Promise<string[]> {
    if (!hasMetadataFields(fields)) return [];
    const time = now(this.context);
    const { warnings } = await this.context.keys.change(path, async (current) => ({
      next: applyMetadataWrite(current ?? newMetadata(time), fields),
      result: undefined,
    }));
    return [...(await this.casWarnings(fields)), ...warnings];
  }

  /** Needs an existing key. */
  async patch(path: string, fields: MetadataPatch): Promise<MetadataPatchOutcome> {
    const { result: found, warnings } = await this.context.keys.change(path, async (current) => ({
      next: current && hasMetadataFields(fields) ? applyMetadataPatch(current, fields) : unchanged,
      result: current !== undefined,
    }));
    if (!found) return { state: 'missing' };
    return { state: 'patched', warnings: [...(await this.casWarnings(fields)), ...warnings] };
  }

  /** Removes the key and every version; a missing key is not an error. */
  remove(path: string): Promise<void> {
    return this.context.keys.removeEvenIfCorrupt(path);
  }

  list(folder: string, options: ListFields): Promise<string[]> {
    return listKeys(this.context.keys, folder, options);
  }

  private async casWarnings(fields: MetadataWrite | MetadataPatch): Promise<string[]> {
    return fields.cas_required === false ? casRequiredWarnings(await this.context.config.read()) : [];
  }
}
