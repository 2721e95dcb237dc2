import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDuration, parseDuration } from '../../src/lib/duration.js';
import { formatTimestamp, parseTimestamp } from '../../src/lib/time.js';
import { InvalidRequest } from '../../src/lib/errors.js';

describe('parseDuration', () => {
  it.each([
    [0, 0],
    [90, 90],
    [12.9, 12],
    ['', 0],
    ['45', 45],
    ['1h30m', 5400],
    ['72h', 259200],
    ['5m0s', 300],
    ['1.5h', 5400],
    ['-1h', -3600],
    ['-1s', -1],
    ['300ms', 0],
    ['1500ms', 1],
    ['7d', 604800],
    ['1h0m0s', 3600],
    ['2h45m30s', 9930],
    ['1us', 0],
    ['0', 0],
  ] as const)('%j is %d seconds', (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds);
  });

  it.each(['abc', '1x', 'h', '1h30', '--1s', '1 h', '1.5d', 'Infinity', 'NaN'])('refuses %j with a 400', (input) => {
    expect(() => parseDuration(input)).toThrow(InvalidRequest);
  });

  it('refuses values out of range', () => {
    expect(() => parseDuration(1e300)).toThrow(/out of range/);
    expect(() => parseDuration('99999999999999h')).toThrow(/out of range/);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [45, '45s'],
    [300, '5m0s'],
    [3600, '1h0m0s'],
    [12319, '3h25m19s'],
    [2592000, '720h0m0s'],
    [-1, '-1s'],
    [-5400, '-1h30m0s'],
  ])('%d seconds is %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('round-trips every whole number of seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (seconds) => parseDuration(formatDuration(seconds)) === seconds),
    );
  });
});

describe('timestamps', () => {
  it('prints RFC 3339 UTC with trailing fraction zeros trimmed', () => {
    expect(formatTimestamp(new Date('2018-03-22T02:24:06.945Z'))).toBe('2018-03-22T02:24:06.945Z');
    expect(formatTimestamp(new Date('2018-03-22T02:24:06.900Z'))).toBe('2018-03-22T02:24:06.9Z');
    expect(formatTimestamp(new Date('2018-03-22T02:24:10.000Z'))).toBe('2018-03-22T02:24:10Z');
    expect(formatTimestamp(undefined)).toBe('');
    expect(formatTimestamp(Date.UTC(2020, 0, 1))).toBe('2020-01-01T00:00:00Z');
    expect(formatTimestamp(new Date('2018-03-22T02:24:00.010Z'))).toBe('2018-03-22T02:24:00.01Z');
  });

  it('trims the fraction as RFC3339Nano does, for every time a Date holds', () => {
    const trimmed = (ms: number) => new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
    fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => formatTimestamp(ms) === trimmed(ms)));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4102444800 }),
        (seconds) => formatTimestamp(seconds * 1000) === trimmed(seconds * 1000),
      ),
    );
  });

  it('parses what it prints', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4102444800000 }),
        (ms) => parseTimestamp(formatTimestamp(ms))?.getTime() === ms,
      ),
    );
    expect(parseTimestamp('')).toBeUndefined();
    expect(parseTimestamp('not a time')).toBeUndefined();
  });
});
