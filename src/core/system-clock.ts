import type { Clock } from '../ports/clock.js';

/** The default clock of every engine and adapter; tests inject a ManualClock instead. */
export const systemClock: Clock = { now: () => new Date() };
