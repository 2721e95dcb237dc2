import { BerCursor, BerError } from './ber.js';

const UTC_TIME = 0x17;
const GENERALIZED_TIME = 0x18;
const ZERO = 0x30;
const NINE = 0x39;
const Z = 0x5a;
const FULL_STOP = 0x2e;

/**
 * A Time, as a certificate's validity and a signingTime attribute carry it (RFC 5280 §4.1.2.5, RFC 5652 §11.3), from
 * its encoding: UTCTime YYMMDDHHMMSSZ (years 50-99 are 19xx) or GeneralizedTime YYYYMMDDHHMMSS[.fff]Z. Read octet by
 * octet: a string and a regular expression took a quarter of a microsecond of every login. Any other form throws a
 * BerError naming `what`, and so does a time that names no instant (month 13, 30 February, hour 24, second 60): rolled
 * over, it would be another time than the one signed.
 */
export function readTime(encoding: Uint8Array, what: string): Date {
  const cursor = new BerCursor(encoding);
  const tag = cursor.peek();
  const utc = tag === UTC_TIME;
  if (!utc && tag !== GENERALIZED_TIME) throw invalid(what);
  const start = cursor.contentStart;
  const length = cursor.length;
  const digits = utc ? 12 : 14;
  // A GeneralizedTime may carry a fraction of a second between its seconds and its Z: '.' and at least one digit.
  const withFraction = !utc && length > digits + 2;
  if (length !== digits + 1 && !withFraction) throw invalid(what);
  for (let at = 0; at < length - 1; at++) {
    const octet = encoding[start + at] as number;
    const fits = withFraction && at === digits ? octet === FULL_STOP : octet >= ZERO && octet <= NINE;
    if (!fits) throw invalid(what);
  }
  if (encoding[start + length - 1] !== Z) throw invalid(what);

  const digit = (at: number): number => (encoding[start + at] as number) - ZERO;
  const two = (at: number): number => digit(at) * 10 + digit(at + 1);
  const at = utc ? 0 : 2;
  const year = utc ? (two(0) < 50 ? 2000 : 1900) + two(0) : two(0) * 100 + two(2);
  const [month, day, hour, minute, second] = [two(at + 2), two(at + 4), two(at + 6), two(at + 8), two(at + 10)];
  // Checked one by one rather than left to Date, which rolls every field over into the next.
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw invalid(what);
  }
  // Milliseconds: the first three digits of the fraction; the rest cannot change them.
  let milliseconds = 0;
  for (let index = digits + 1, scale = 100; index < length - 1 && scale >= 1; index++, scale /= 10)
    milliseconds += digit(index) * scale;
  // setUTCFullYear rather than Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const time = new Date(0);
  time.setUTCFullYear(year, month - 1, day);
  time.setUTCHours(hour, minute, second, milliseconds);
  return time;
}

/** The number of days of a month (1 to 12) of a year. */
function daysIn(year: number, month: number): number {
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return last.getUTCDate();
}

function invalid(what: string): BerError {
  return new BerError(`invalid ${what}`);
}
