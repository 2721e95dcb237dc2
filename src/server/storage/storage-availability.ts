// Whether the server's storage answers: one log line when an outage begins and one when it ends (never one per
// request), and the readiness probe's answer.
import { StorageUnavailable } from '../../lib/errors.js';
import type { Storage } from '../../ports/storage.js';
import type { CallWatcher } from '../metrics/metered-storage.js';
import type { LogEntry } from '../log/log-level.js';

/** A key nobody writes: reading it asks the storage for an answer and nothing else. */
const PROBE_KEY = 'sys/readiness-probe';

/**
 * Watches every call the server makes to its storage. A call that fails with StorageUnavailable begins an outage; one
 * that succeeds ends it. Only a call that started after the last change counts: calls already under way when the
 * storage went away (or came back) say nothing new, and would otherwise log an outage twice.
 */
export class StorageAvailability {
  private outage?: { since: number; storage: string };
  /** Counts the changes, so that a call knows whether one happened while it ran. */
  private phase = 0;

  constructor(private readonly log: (entry: LogEntry) => void) {}

  /** Told of every storage call (see observedStorage): its outcome counts here if nothing changed while it ran. */
  readonly watcher: CallWatcher = () => {
    const phase = this.phase;
    return (error) => {
      if (phase !== this.phase) return;
      if (error === undefined) this.succeeded();
      else if (error instanceof StorageUnavailable) this.failed(error);
    };
  };

  /** Whether the storage answers a read now (within its own timeouts). */
  async readable(storage: Storage): Promise<boolean> {
    try {
      await storage.get(PROBE_KEY);
      return true;
    } catch {
      return false;
    }
  }

  private failed(error: StorageUnavailable): void {
    if (this.outage) return;
    this.phase++;
    this.outage = { since: Date.now(), storage: error.storage };
    this.log({
      time: new Date().toISOString(),
      level: 'error',
      msg: 'storage outage began',
      storage: error.storage,
      cause: error.reason,
    });
  }

  private succeeded(): void {
    const outage = this.outage;
    if (!outage) return;
    this.phase++;
    this.outage = undefined;
    this.log({
      time: new Date().toISOString(),
      level: 'warn',
      msg: 'storage outage ended',
      storage: outage.storage,
      after_ms: Date.now() - outage.since,
    });
  }
}
