import { CorruptDocument, unchanged } from '../../core/store/stored-json.js';
import { now, type KvContext } from './context.js';
import {
  applyMetadataPatch,
  applyMetadataWrite,
  casRequiredWarnings,
  hasMetadataFields,
  newMetadata,
  type MetadataPatch,
  type MetadataWrite,
} from '../rules/metadata.js';
import { keyChange, removalChange } from '../changes/change-events.js';
import { recordedChange } from '../changes/recorded-change.js';
import { transferKey, type Authorize, type TransferFields } from './key-moves.js';
import { checkMetadataCas, metadataCasRequiredWarnings, nextMetadataVersion } from '../rules/metadata-cas.js';
import type { StoredConfig } from '../documents/config-document.js';
import { keyMetadata, type KeyMetadata } from '../rules/views.js';

/** The operations on keys as a whole: metadata read, write, patch and delete. */

export type MetadataPatchOutcome = { state: 'missing' } | { state: 'patched'; warnings: string[] };

export class MetadataOperations {
  constructor(private readonly context: KvContext) {}

  async read(path: string): Promise<KeyMetadata | undefined> {
    const { keys } = this.context;
    return keys.consistent(async () => {
      const key = await keys.read(path);
      return key && keyMetadata({ ...key, versions: await keys.versions(path, key) }, now(this.context));
    });
  }

  /** Creates the key when needed; a write with none of the four fields creates nothing. Never prunes. */
  async write(path: string, fields: MetadataWrite): Promise<string[]> {
    if (!hasMetadataFields(fields)) return [];
    const time = now(this.context);
    await this.lifetimesBefore(fields);
    const config = await this.context.config.read();
    const { warnings } = await recordedChange(this.context, path, 'metadata-write', async (current) => {
      checkMetadataCas(fields.metadata_cas, current, config);
      const next = applyMetadataWrite(current ?? newMetadata(time), fields);
      return { next: { ...next, metadata_version: nextMetadataVersion(current) }, result: undefined };
    });
    return [...this.casWarnings(fields, config), ...warnings];
  }

  /** Needs an existing key. */
  async patch(path: string, fields: MetadataPatch): Promise<MetadataPatchOutcome> {
    await this.lifetimesBefore(fields);
    const config = await this.context.config.read();
    const { result: found, warnings } = await recordedChange(this.context, path, 'metadata-patch', async (current) => {
      if (!current || !hasMetadataFields(fields)) return { next: unchanged, result: current !== undefined };
      checkMetadataCas(fields.metadata_cas, current, config);
      return {
        next: { ...applyMetadataPatch(current, fields), metadata_version: nextMetadataVersion(current) },
        result: true,
      };
    });
    if (!found) return { state: 'missing' };
    return { state: 'patched', warnings: [...this.casWarnings(fields, config), ...warnings] };
  }

  /** Removes the key and every version; a missing key is not an error. */
  async remove(path: string): Promise<void> {
    const { keys, feed } = this.context;
    // A corrupt record is removed too (that is how it gets repaired), without an event: there is nothing to describe.
    const last = await keys.read(path).catch((error: unknown) => {
      if (error instanceof CorruptDocument) return undefined;
      throw error;
    });
    await keys.removeEvenIfCorrupt(path);
    if (last) feed.deliver([removalChange(path, last, now(this.context))]);
  }

  /** Moves (or copies) a key with its history; the target's arrival and a moved source's removal are change events. */
  async transfer(from: string, fields: TransferFields, keepSource: boolean, authorize?: Authorize): Promise<void> {
    const { source, made, to } = await transferKey(this.context.keys, from, fields, keepSource, authorize);
    const changes = [keyChange(to, made)];
    if (!keepSource) changes.push(removalChange(from, source, made.time));
    this.context.feed.deliver(changes);
  }

  /** The config learns of a key's destroy_version_after before any head has it, so the sweep never misses one. */
  private async lifetimesBefore(fields: MetadataWrite | MetadataPatch): Promise<void> {
    if ((fields.destroy_version_after ?? 0) > 0) await this.context.config.markLifetimes();
  }

  private casWarnings(fields: MetadataWrite | MetadataPatch, config: StoredConfig): string[] {
    const cas = fields.cas_required === false ? casRequiredWarnings(config) : [];
    return [...cas, ...metadataCasRequiredWarnings(fields.metadata_cas_required, config)];
  }
}
