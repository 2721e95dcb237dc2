/** The time port: engines never read the system clock directly, so tests can move time by hand. */
export interface Clock {
  now(): Date;
}
