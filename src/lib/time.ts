/**
 * RFC 3339 UTC timestamps in Vault's style (Go's RFC3339Nano): trailing zeros of the fraction trimmed, and the
 * dot too when the fraction is zero. "No time" is the empty string.
 */
export function formatTimestamp(time: Date | number | undefined): string {
  if (time === undefined) return '';
  const date = typeof time === 'number' ? new Date(time) : time;
  if (Number.isNaN(date.getTime())) return '';
  // toISOString always writes a three-digit fraction ("…ss.sssZ"): trimmed by its ending, which costs no regex.
  const text = date.toISOString();
  if (text.endsWith('.000Z')) return `${text.slice(0, -5)}Z`;
  if (text.endsWith('00Z')) return `${text.slice(0, -3)}Z`;
  if (text.endsWith('0Z')) return `${text.slice(0, -2)}Z`;
  return text;
}

/** Parses an RFC 3339 timestamp; undefined for "" or anything unparsable. */
export function parseTimestamp(text: string): Date | undefined {
  if (text === '') return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
