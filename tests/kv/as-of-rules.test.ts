import { describe, expect, it } from 'vitest';
import { parseAsOf, stateAt } from '../../src/kv/rules/as-of.js';
import { newMetadata } from '../../src/kv/rules/metadata.js';
import type { StoredMetadata, StoredVersion } from '../../src/kv/documents/head-document.js';
import { InvalidRequest } from '../../src/lib/errors.js';

/** The point-in-time rules as pure functions over a key's record. */

function key(fields: Partial<StoredMetadata> = {}): StoredMetadata {
  return { ...newMetadata(100), ...fields };
}

const v = (version: number, created: number, more: Partial<StoredVersion> = {}): StoredVersion => ({
  version,
  created,
  blob: `b${version}`,
  ...more,
});

/** Later than every time asked below: what is destroyed now is judged at this moment. */
const NOW = 1_000_000;

describe('stateAt', () => {
  const versions = [v(1, 100), v(2, 200, { deletion: 250 }), v(3, 300, { destroyed: true }), v(4, 400)];
  const record = key({ current_version: 4, versions });

  it('is the newest version created at or before the time; a creation at exactly the time counts', () => {
    expect(stateAt(record, versions, 199, NOW)).toEqual({ state: 'live', entry: versions[0] });
    expect(stateAt(record, versions, 200, NOW)).toEqual({ state: 'live', entry: versions[1] });
    expect(stateAt(record, versions, 10_000, NOW)).toEqual({ state: 'live', entry: versions[3] });
  });

  it('deleted from its deletion time on (inclusive); destroyed at every time', () => {
    expect(stateAt(record, versions, 249, NOW).state).toBe('live');
    expect(stateAt(record, versions, 250, NOW)).toEqual({ state: 'deleted', entry: versions[1] });
    expect(stateAt(record, versions, 300, NOW)).toEqual({ state: 'gone', entry: versions[2] });
  });

  it('absent before the key, for no key, and for a key with metadata only then', () => {
    expect(stateAt(record, versions, 99, NOW)).toEqual({ state: 'absent' });
    expect(stateAt(undefined, [], 500, NOW)).toEqual({ state: 'absent' });
    expect(stateAt(key({ created: 50 }), versions, 99, NOW)).toEqual({ state: 'absent' });
  });

  it('gone at every time once past its destroy_version_after, judged now', () => {
    const expiring = [v(1, 100, { destruction: 5_000 })];
    const expiringKey = key({ current_version: 1, versions: expiring });
    expect(stateAt(expiringKey, expiring, 200, 4_999)).toEqual({ state: 'live', entry: expiring[0] });
    expect(stateAt(expiringKey, expiring, 200, 5_000)).toEqual({ state: 'gone', entry: expiring[0] });
  });

  it('gone where the versions of then may have been pruned', () => {
    const kept = versions.slice(2);
    expect(stateAt(key({ created: 50, current_version: 4, oldest_version: 3 }), kept, 150, NOW)).toEqual({
      state: 'gone',
    });
  });
});

describe('parseAsOf', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('takes RFC 3339 with a zone, any fraction, or a Date; up to now inclusive', () => {
    expect(parseAsOf('2026-03-01T12:00:00Z', now)).toBe(now);
    expect(parseAsOf('2026-03-01t13:00:00.000000001+01:00', now)).toBe(now);
    expect(parseAsOf(new Date(now - 1), now)).toBe(now - 1);
  });

  it('refuses anything else, and the future', () => {
    for (const text of ['2026-03-01 12:00:00Z', '2026-03-01T12:00Z', '2026-03-01T12:00:00', 'Sun, 01 Mar 2026'])
      expect(() => parseAsOf(text, now)).toThrow(InvalidRequest);
    expect(() => parseAsOf(new Date(Number.NaN), now)).toThrow(InvalidRequest);
    expect(() => parseAsOf('2026-03-01T12:00:00.001Z', now)).toThrow(/future/);
  });
});
