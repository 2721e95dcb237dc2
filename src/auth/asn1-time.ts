import { BerCursor, BerError } from './ber.js';

const UTC_TIME = 0x17;
const GENERALIZED_TIME = 0x18;
const ZERO = 0x30;
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
  const end = start + cursor.length;
  const digits = utc ? 12 : 14;
  const isDigit = (at: number): boolean => (encoding[at] as number) >= ZERO && (encoding[at] as number) <= 0x39;
  let valid = end - start >= digits + 1 && encoding[end - 1] === Z;
  for (let at = start; valid && at < start + digits; at++) valid = isDigit(at);
  // GeneralizedTime may have a fraction of a second between the seconds and the Z.
  const fraction = start + digits + 1;
  if (end - start > digits + 1) valid &&= !utc && encoding[start + digits] === FULL_STOP && end - 1 > fraction;
  for (let at = fraction; valid && at < end - 1; at++) valid = isDigit(at);
  if (!valid) throw invalid(what);

  const two = (at: number): number => ((encoding[start + at] as number) - ZERO) * 10 + (encoding[start + at + 1] as number) - ZERO;
  const at = utc ? 0 : 2;
  const year = utc ? (two(0) < 50 ? 2000 : 1900) + two(0) : two(0) * 100 + two(2);
  const [month, day, hour, minute, second] = [two(at + 2), two(at + 4), two(at + 6), two(at + 8), two(at + 10)];
  const milliseconds = end - 1 > fraction ? Math.floor(Number(`0.${Buffer.from(encoding.buffer, encoding.byteOffset + fraction, end - 1 - fraction).toString('latin1')}`) * 1000) : 0;
  // setUTCFullYear rather than Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const time = new Date(0);
  time.setUTCFullYear(year, month - 1, day);
  time.setUTCHours(hour, minute, second, milliseconds);
  // Out-of-range fields roll over into the next ones: only a time that names an instant reads back the same.
  const readsBack =
    time.getUTCFullYear() === year &&
    time.getUTCMonth() === month - 1 &&
    time.getUTCDate() === day &&
    time.getUTCHours() === hour &&
    time.getUTCMinutes() === minute &&
    time.getUTCSeconds() === second;
  if (!readsBack) throw invalid(what);
  return time;
}

function invalid(what: string): BerError {
  return new BerError(`invalid ${what}`);
}
