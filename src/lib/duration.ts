import { InvalidRequest } from './errors.js';

/**
 * Durations in the wire format of Vault: numbers and numeric strings are seconds, "<n>d" is days, anything
 * else is Go's duration syntax ("1h30m", "1.5h", "-300ms"). Results are whole seconds, truncated toward zero.
 */

const UNIT_NANOS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const GO_DURATION = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const GO_TERM = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;
const DAYS = /^([+-]?\d+)d$/;
const NUMERIC = /^[+-]?\d+(?:\.\d+)?$/;

/** The largest duration accepted, in seconds (about 292 years, Go's limit). */
export const MAX_DURATION_SECONDS = 9_223_372_036;

export function parseDuration(input: string | number, field = 'duration'): number {
  if (typeof input === 'number') return checked(Math.trunc(input), input, field);
  const text = input.trim();
  if (text === '') return 0;
  if (NUMERIC.test(text)) return checked(Math.trunc(Number(text)), input, field);
  const days = DAYS.exec(text);
  if (days) return checked(Number(days[1]) * 86_400, input, field);
  if (text === '0' || text === '+0' || text === '-0') return 0;
  if (!GO_DURATION.test(text)) {
    throw new InvalidRequest(
      `invalid ${field} ${JSON.stringify(input)}: expected seconds or a duration such as "90s", "1h30m" or "7d"`,
    );
  }
  const sign = text.startsWith('-') ? -1 : 1;
  let nanos = 0;
  for (const match of text.matchAll(GO_TERM)) nanos += Number(match[1]) * (UNIT_NANOS[match[2] as string] as number);
  return checked(sign * Math.trunc(nanos / 1e9), input, field);
}

function checked(seconds: number, input: unknown, field: string): number {
  if (!Number.isFinite(seconds) || Math.abs(seconds) > MAX_DURATION_SECONDS) {
    throw new InvalidRequest(`invalid ${field} ${JSON.stringify(input)}: out of range`);
  }
  return seconds === 0 ? 0 : seconds;
}

/** Go's Duration.String() for whole seconds: "0s", "45s", "5m0s", "1h0m0s", "720h0m0s", "-1s". */
export function formatDuration(seconds: number): string {
  const whole = Math.trunc(seconds);
  if (whole === 0) return '0s';
  const sign = whole < 0 ? '-' : '';
  let rest = Math.abs(whole);
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const secs = rest - minutes * 60;
  if (hours > 0) return `${sign}${hours}h${minutes}m${secs}s`;
  if (minutes > 0) return `${sign}${minutes}m${secs}s`;
  return `${sign}${secs}s`;
}
