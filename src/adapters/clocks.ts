import type { Clock } from '../ports/clock.js';

export { systemClock } from '../core/system-clock.js';

/** A clock that only moves when told to: for tests of expiry, tidy and token lifetimes. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string | number = '2026-01-01T00:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(time: Date | string | number): void {
    this.current = new Date(time).getTime();
  }

  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}
