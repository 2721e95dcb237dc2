/** The time port: engines never read the system clock directly, so tests can move time by hand. */
export interface Clock {
  /** The current time: what versions, expiries, tidies and request signatures are dated with. */
  now(): Date;
}
