// The change events this process has delivered, numbered, so that an event stream can resume where its client left off:
// each event's SSE `id:` is `<process>-<number>`, and a reconnect with that id as `Last-Event-ID` gets what came after
// it, from here, before what comes next.
import { randomBytes } from 'node:crypto';
import type { KvChangeEvent } from '../../kv/changes/change-events.js';
import type { KvEngine } from '../../kv/kv-engine.js';

/** How many of the latest events a process keeps for streams that reconnect. */
export const KEPT_EVENTS = 10_000;

/** An event with its id. */
export interface LoggedEvent {
  id: string;
  event: KvChangeEvent;
}

/**
 * Where a stream starts: after its `Last-Event-ID` (`resumed`), or from now: none was given (`fresh`), it is not an id
 * this process gave (`unknown`: another process's, one from before a restart, or not an id at all), or events after it
 * are no longer kept (`expired`).
 */
export type StreamStart = 'fresh' | 'resumed' | 'unknown' | 'expired';

/**
 * Every event of the mount, numbered in the order this process delivered them (its own changes and, over a storage that
 * can watch, other processes'), the last KEPT_EVENTS kept. A number means something only to the process that gave it:
 * the id carries a random name of the process, so that an id from another process, or from before a restart, is
 * recognised as such rather than taken for one of ours.
 */
export class EventLog {
  private readonly name = randomBytes(6).toString('hex');
  private readonly kept: LoggedEvent[] = [];
  /** The number of the last event logged (0: none yet). */
  private last = 0;
  private readonly listeners = new Set<(logged: LoggedEvent) => void>();
  private recording?: Promise<void>;

  constructor(private readonly kv: KvEngine) {}

  /**
   * Starts logging (once: from the first stream on, for the life of the process); resolves when changes from other
   * processes are delivered too, or at once if watching them failed (the engine reports that).
   */
  start(): Promise<void> {
    this.recording ??= (() => {
      this.kv.subscribe('', (event) => this.append(event));
      return this.kv.watching().catch(() => undefined);
    })();
    return this.recording;
  }

  /**
   * Where a stream that sent `lastEventId` (undefined: none) starts: the events after it this log still holds, and
   * `now`, the id that stands for everything up to here. A stream writes the backlog, then `listen`s, in the same
   * synchronous run, so that no event falls between the two.
   */
  resume(lastEventId: string | undefined): { start: StreamStart; backlog: LoggedEvent[]; now: string } {
    const now = `${this.name}-${this.last}`;
    if (lastEventId === undefined) return { start: 'fresh', backlog: [], now };
    const match = /^([0-9a-f]{12})-(\d{1,15})$/.exec(lastEventId);
    const number = Number(match?.[2]);
    if (match?.[1] !== this.name || number > this.last) return { start: 'unknown', backlog: [], now };
    // Every event after `number` must still be kept: the oldest kept is numbered last - kept.length + 1.
    if (number < this.last - this.kept.length) return { start: 'expired', backlog: [], now };
    return { start: 'resumed', backlog: this.kept.slice(this.kept.length - (this.last - number)), now };
  }

  /** Calls `listener` with every event from now on, until the answer is called. */
  listen(listener: (logged: LoggedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private append(event: KvChangeEvent): void {
    const logged = { id: `${this.name}-${++this.last}`, event };
    this.kept.push(logged);
    if (this.kept.length > KEPT_EVENTS) this.kept.shift();
    for (const listener of this.listeners) listener(logged);
  }
}
