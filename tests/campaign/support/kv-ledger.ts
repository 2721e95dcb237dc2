import { isPlainObject } from '../../../src/core/framework/fields.js';
import type { Storage } from '../../../src/ports/storage.js';
import { kvKeyState, kvVersionData } from './invariants.js';

/**
 * "No acknowledged write is lost", for runs where many operations race or fail. Every write and patch puts a unique
 * `tag` in the data. The ledger remembers which tags were attempted on each key, which version each acknowledged one
 * got, and when metadata deletes were issued (they legitimately reset a key). `problems` then reads storage directly:
 * - every stored version holds the data of a write attempted on that key, and no two versions hold the same write;
 * - an acknowledged version is still there with its own data, unless it was pruned or destroyed, or a metadata
 *   delete of the key was still running after the write was issued (the delete may then take effect after it).
 */

interface Ack {
  tag: string;
  version: number;
  /** Ledger clock when the write was issued, and when it was acknowledged. */
  issued: number;
  acknowledged: number;
}

interface Reset {
  started: number;
  /** Infinity while it runs. */
  finished: number;
}

interface StoredVersionRecord {
  version: number;
  blob?: string;
  destroyed?: true;
}

export class KvLedger {
  private clock = 0;
  private readonly attempted = new Map<string, Set<string>>();
  private readonly acks = new Map<string, Ack[]>();
  private readonly resets = new Map<string, Reset[]>();

  /** A fresh tag for a write or patch of `key`; pass the answer to `acknowledged` when it succeeds. */
  issue(key: string): { tag: string; issued: number } {
    const issued = ++this.clock;
    const tag = `${key}#${issued}`;
    this.attempted.set(key, (this.attempted.get(key) ?? new Set()).add(tag));
    return { tag, issued };
  }

  acknowledged(key: string, write: { tag: string; issued: number }, version: number): void {
    this.acks.set(key, [...(this.acks.get(key) ?? []), { ...write, version, acknowledged: ++this.clock }]);
  }

  /** How many writes and patches of `key` were acknowledged. */
  acknowledgedCount(key: string): number {
    return this.acks.get(key)?.length ?? 0;
  }

  /** A metadata delete of `key` starts; call the answer when it has finished (whatever its outcome). */
  reset(key: string): () => void {
    const reset: Reset = { started: ++this.clock, finished: Number.POSITIVE_INFINITY };
    this.resets.set(key, [...(this.resets.get(key) ?? []), reset]);
    return () => {
      reset.finished = ++this.clock;
    };
  }

  /**
   * Whether the write that stored `data` was acknowledged while a metadata delete of its key was running. Across
   * processes such a write can land between the delete's last check and its removal of the record (the Storage port
   * has no compare-and-delete): the record goes, and the write's data stays behind unreferenced (docs/security.md).
   */
  racedMetadataDelete(data: unknown): boolean {
    const tag = isPlainObject(data) ? data.tag : undefined;
    for (const [key, acks] of this.acks) {
      const ack = acks.find((candidate) => candidate.tag === tag);
      if (ack)
        return (this.resets.get(key) ?? []).some(
          (reset) => reset.started < ack.acknowledged && reset.finished > ack.issued,
        );
    }
    return false;
  }

  async problems(storage: Storage, prefix = 'kv/'): Promise<string[]> {
    const problems: string[] = [];
    for (const [key, tags] of this.attempted) {
      const state = await kvKeyState(storage, prefix, key, problems);
      const record = state && {
        oldest_version: state.record.oldest_version as number,
        versions: state.versions as unknown as StoredVersionRecord[],
      };
      const held = new Map<number, string>();
      const seen = new Map<string, number>();
      for (const entry of record?.versions ?? []) {
        const stored =
          state &&
          (await kvVersionData(storage, prefix, key, state.record, entry as unknown as Record<string, unknown>));
        if (!stored) continue;
        const { value } = stored;
        const tag = isPlainObject(value) ? value.tag : undefined;
        if (typeof tag !== 'string' || !tags.has(tag)) {
          problems.push(`${key}@${entry.version}: holds data no write of this key sent (${JSON.stringify(tag)})`);
          continue;
        }
        if (seen.has(tag))
          problems.push(`${key}: write ${tag} appears as version ${seen.get(tag)} and ${entry.version}`);
        seen.set(tag, entry.version);
        held.set(entry.version, tag);
      }
      for (const ack of this.acks.get(key) ?? []) {
        if ((this.resets.get(key) ?? []).some((reset) => reset.finished > ack.issued)) continue;
        const entry = record?.versions.find((candidate) => candidate.version === ack.version);
        const pruned = record !== undefined && ack.version < record.oldest_version;
        if (!record) problems.push(`${key}: acknowledged version ${ack.version} (${ack.tag}) lost with the whole key`);
        else if (!entry && !pruned) problems.push(`${key}: acknowledged version ${ack.version} (${ack.tag}) lost`);
        else if (entry && !entry.destroyed && held.get(ack.version) !== ack.tag) {
          problems.push(
            `${key}@${ack.version}: acknowledged for ${ack.tag} but holds ${held.get(ack.version) ?? 'nothing'}`,
          );
        }
      }
    }
    return problems;
  }
}
