// The durable cursor: per mount and key, the last change of the key already queued for the webhooks. The changes come
// from the key's own recorded history (committed with each change), read from this cursor, so a change is queued even
// when no process heard of it as it happened (the deliverer was down, or its process had not seen that commit).
import { createHash } from 'node:crypto';
import type { JsonStore } from '../../core/store/stored-json.js';
import type { KvChangeEvent, KvEngine } from '../../kv/index.js';
import { WEBHOOKS_ROOT } from './webhook-store.js';

interface Cursor {
  /** When the key was created: a key created again starts its revisions afresh. */
  created: string;
  revision: number;
  version: number;
}

/** A change found past a cursor, with the id every process gives it. */
export interface FoundChange extends KvChangeEvent {
  id: string;
}

const folderOf = (mount: string) => `${WEBHOOKS_ROOT}cursor/${encodeURIComponent(mount)}/`;

/** The id of a change: the same wherever and however often it is found. */
function changeId(mount: string, created: string, change: Pick<KvChangeEvent, 'path' | 'revision'>): string {
  return createHash('sha256')
    .update(JSON.stringify([mount, change.path, created, change.revision]))
    .digest('hex')
    .slice(0, 32);
}

export class ChangeCursor {
  constructor(
    private readonly store: JsonStore,
    private readonly now: () => number,
  ) {}

  /**
   * The changes of the key past the cursor made up to `until` (epoch ms), oldest first; `advance` then moves the cursor
   * past them (call it once they are queued: a crash before it finds them again, which queueing tolerates). Later
   * changes wait for a later call: the caller read its webhooks at `until`, and a webhook created since may want them.
   * A key gone since the cursor was written gives its removal; a key created again gives its former life's removal,
   * then its new life's changes.
   */
  async pending(
    mount: string,
    engine: KvEngine,
    path: string,
    until: number,
  ): Promise<{ changes: FoundChange[]; later: boolean; advance: () => Promise<void> }> {
    const key = folderOf(mount) + path;
    const [cursor, recorded] = await Promise.all([this.store.get<Cursor>(key), engine.recordedChanges(path)]);
    const changes: FoundChange[] = [];
    const newLife = cursor === undefined || recorded?.created !== cursor.created;
    if (cursor && newLife) {
      const removal = { path, revision: cursor.revision + 1, version: cursor.version };
      // When it happened is not recorded: it was found now, and dated no later than the webhooks were read.
      const time = new Date(Math.min(this.now(), until)).toISOString();
      changes.push({ ...removal, operation: 'metadata-delete', time, id: changeId(mount, cursor.created, removal) });
    }
    const fresh: FoundChange[] = [];
    let later = false;
    for (const change of recorded?.changes ?? []) {
      if ((later = Date.parse(change.time) > until)) break;
      if (newLife || change.revision > cursor.revision)
        fresh.push({ ...change, id: changeId(mount, recorded!.created, change) });
    }
    changes.push(...fresh);
    const last = fresh.at(-1);
    const advance = async () => {
      if (!recorded) return cursor ? this.store.delete(key) : undefined;
      // A new life with nothing to send yet still ends the former one: its removal is not sent twice.
      const next = last ?? (cursor && newLife ? { revision: 0, version: 0 } : undefined);
      if (next)
        await this.store.put(key, { created: recorded.created, revision: next.revision, version: next.version });
    };
    return { changes, later, advance };
  }

  /** The keys of the mount the cursor knows, for finding those removed since. */
  async *known(mount: string): AsyncGenerator<string> {
    yield* this.store.keysBelow(folderOf(mount));
  }
}
