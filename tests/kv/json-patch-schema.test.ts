import { describe, expect, it } from 'vitest';

/**
 * The JSON Patch operation schema, loaded inside the test (not imported at the top), so that a schema that cannot
 * even be built fails here as a test rather than as a file that does not load.
 */

const EVERY_KIND = [
  { op: 'add', path: '/a', value: 1 },
  { op: 'replace', path: '/a', value: [2] },
  { op: 'test', path: '', value: { a: null } },
  { op: 'remove', path: '/a' },
  { op: 'move', from: '/a', path: '/b' },
  { op: 'copy', from: '/a', path: '/b' },
];

describe('jsonPatchOperations', () => {
  it('parses every kind of operation to itself, keeping its op and dropping unknown members', async () => {
    const { jsonPatchOperations } = await import('../../src/kv/values/json-patch.js');
    expect(jsonPatchOperations.parse(EVERY_KIND.map((operation) => ({ ...operation, note: 'ignored' })))).toEqual(
      EVERY_KIND,
    );
  });

  it('refuses an unknown op, and an op of one kind with the members of another', async () => {
    const { jsonPatchOperations } = await import('../../src/kv/values/json-patch.js');
    for (const operation of [
      { op: 'spam', path: '/a' },
      { op: 'move', path: '/a', value: 1 },
      { path: '/a', value: 1 },
    ]) {
      expect(jsonPatchOperations.safeParse([operation]).success).toBe(false);
    }
  });
});
