import type { Clock } from '../ports/clock.js';

/** The default clock of every engine and adapter; tests inject a ManualClock instead. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to: for tests of expiry, tidy and token lifetimes. */
export class ManualClock implements Clock {
  private current: number;

  /** Starts at `start`, anything `new Date()` reads (a Date, a date string, epoch ms); default 2026-01-01T00:00:00Z. */
  constructor(start: Date | string | number = '2026-01-01T00:00:00Z') {
    this.current = new Date(start).getTime();
  }

  /** The time it was last set or advanced to (a new Date each call). */
  now(): Date {
    return new Date(this.current);
  }

  /** Moves the clock to `time` (as for the constructor), backwards if need be. */
  set(time: Date | string | number): void {
    this.current = new Date(time).getTime();
  }

  /** Moves the clock forward by `seconds` (fractions allowed; a negative number moves it back). */
  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}
