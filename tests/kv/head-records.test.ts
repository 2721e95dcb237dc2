import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/memory-storage.js';
import { encodeHead, headText, laidOut } from '../../src/kv/head-records.js';
import type { StoredMetadata } from '../../src/kv/records.js';
import { dataOf, setup } from './helpers.js';

/** Committed heads are laid out in one shape and encoded from their parts' kept texts, as JSON.stringify would write them. */

const count = fc.nat({ max: 2 ** 40 });
const entry = fc.record(
  { version: count, created: count, deletion: count, destroyed: fc.constant(true as const), blob: fc.string({ unit: fc.constantFrom(...'abcdef0123456789-') }), later: fc.string() },
  { requiredKeys: ['version', 'created'] },
);
const change = fc.record({ operation: fc.constantFrom('write', 'patch', 'metadata-write'), version: count, revision: count, time: count });

const head: fc.Arbitrary<StoredMetadata> = fc.record(
  {
    created: count,
    updated: count,
    current_version: count,
    oldest_version: count,
    max_versions: count,
    cas_required: fc.boolean(),
    delete_version_after: fc.integer(),
    custom_metadata: fc.dictionary(fc.string(), fc.string()),
    metadata_version: count,
    metadata_cas_required: fc.boolean(),
    changes: fc.array(change, { maxLength: 16 }),
    revision: count,
    spilled: count,
    documents_from: count,
    versions: fc.array(entry, { maxLength: 12 }),
    garbage: fc.array(fc.string({ unit: fc.constantFrom(...'abcdef0123456789-') })),
    retired: fc.array(count),
  },
  { requiredKeys: ['created', 'updated', 'current_version', 'oldest_version', 'max_versions', 'cas_required', 'delete_version_after', 'custom_metadata', 'revision', 'spilled', 'versions', 'garbage', 'retired'] },
) as fc.Arbitrary<StoredMetadata>;

/** Fields a newer version of the format might add, anywhere among the others; `__proto__` included. */
const extras = fc.dictionary(fc.constantFrom('future', '__proto__', 'toString', 'nested', 'z'), fc.jsonValue(), { maxKeys: 3 });

function withExtras(record: StoredMetadata, added: Record<string, unknown>): StoredMetadata {
  return JSON.parse(JSON.stringify({ ...JSON.parse(JSON.stringify(added)), ...record })) as StoredMetadata;
}

describe('head records', () => {
  it('encode to exactly what JSON.stringify writes, also when the next head carries the parts over', () => {
    fc.assert(
      fc.property(head, extras, entry, change, (record, added, newEntry, newChange) => {
        const decoded = withExtras(record, added);
        expect(headText(decoded)).toBe(JSON.stringify(decoded));
        const next = laidOut({ ...decoded, versions: [...decoded.versions.slice(1), newEntry], changes: [...(decoded.changes ?? []), newChange], revision: decoded.revision + 1 });
        expect(new TextDecoder().decode(encodeHead(next))).toBe(JSON.stringify(next));
        // And again, now that every part's text is kept.
        expect(headText(next)).toBe(JSON.stringify(next));
      }),
    );
  });

  it('laid out, keep every field and value, including those a newer format added', () => {
    fc.assert(
      fc.property(head, extras, (record, added) => {
        const decoded = withExtras(record, added);
        const out = laidOut(decoded);
        expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse(JSON.stringify(decoded)));
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      }),
    );
  });

  it('freeze the parts whose text they keep, so that the text stays true', () => {
    const record = laidOut(JSON.parse('{"created":1,"updated":1,"current_version":1,"oldest_version":0,"max_versions":0,"cas_required":false,"delete_version_after":0,"custom_metadata":{},"revision":1,"spilled":0,"versions":[{"version":1,"created":1,"blob":"b"}],"garbage":[],"retired":[]}'));
    encodeHead(record);
    expect(Object.isFrozen(record.versions[0])).toBe(true);
    expect(() => {
      (record.versions[0] as { version: number }).version = 2;
    }).toThrow(TypeError);
    expect(headText(record)).toBe(JSON.stringify(record));
  });

  it('a field a newer version added to a stored head survives writes through handle()', async () => {
    const storage = new MemoryStorage();
    const { W, R } = setup({ storage });
    expect((await W('k', { a: 1 })).status).toBe(200);
    const key = 'kv/metadata/k';
    const stored = JSON.parse(new TextDecoder().decode(await storage.get(key))) as Record<string, unknown>;
    await storage.put(key, new TextEncoder().encode(JSON.stringify({ ...stored, future: { kept: [1, 2] } })));
    for (let version = 2; version <= 4; version++) expect((await W('k', { a: version })).status).toBe(200);
    const after = JSON.parse(new TextDecoder().decode(await storage.get(key))) as Record<string, unknown>;
    expect(after.future).toEqual({ kept: [1, 2] });
    expect(after.current_version).toBe(4);
    expect(dataOf(await R('k')).data).toEqual({ a: 4 });
  });
});
