/**
 * RFC 3339 UTC timestamps in the reference's style (Go's RFC3339Nano): trailing zeros of the fraction trimmed, and the
 * dot too when the fraction is zero. "No time" is the empty string.
 */
export function formatTimestamp(time: Date | number | undefined): string {
  if (time === undefined) return '';
  const date = typeof time === 'number' ? new Date(time) : time;
  if (Number.isNaN(date.getTime())) return '';
  return date.toISOString().replace(/\.?0+Z$/, 'Z');
}

/** Parses an RFC 3339 timestamp; undefined for "" or anything unparsable. */
export function parseTimestamp(text: string): Date | undefined {
  if (text === '') return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
