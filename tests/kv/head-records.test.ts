import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeHead, headText, laidOut } from '../../src/kv/store/head-records.js';
import { headFormat, type StoredMetadata } from '../../src/kv/documents/head-document.js';
import { dataOf, setup } from './helpers.js';
import { testStorage } from '../support/test-storage.js';

/** Committed heads are laid out in one shape and encoded from their parts' kept texts, as JSON.stringify would write them. */

const count = fc.nat({ max: 2 ** 40 });
const entry = fc.record(
  {
    version: count,
    created: count,
    deletion: count,
    destruction: count,
    destroyed: fc.constant(true as const),
    blob: fc.string({ unit: fc.constantFrom(...'abcdef0123456789-') }),
    later: fc.string(),
  },
  { requiredKeys: ['version', 'created'] },
);
const change = fc.record({
  operation: fc.constantFrom('write', 'patch', 'metadata-write'),
  version: count,
  revision: count,
  time: count,
});

const head: fc.Arbitrary<StoredMetadata> = fc.record(
  {
    created: count,
    updated: count,
    current_version: count,
    oldest_version: count,
    max_versions: count,
    cas_required: fc.boolean(),
    delete_version_after: fc.integer(),
    destroy_version_after: count,
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
  {
    requiredKeys: [
      'created',
      'updated',
      'current_version',
      'oldest_version',
      'max_versions',
      'cas_required',
      'delete_version_after',
      'destroy_version_after',
      'custom_metadata',
      'revision',
      'spilled',
      'versions',
      'garbage',
      'retired',
    ],
  },
);

/** Fields a newer version of the format might add, anywhere among the others; `__proto__` included. */
const extras = fc.dictionary(fc.constantFrom('future', '__proto__', 'toString', 'nested', 'z'), fc.jsonValue(), {
  maxKeys: 3,
});

function withExtras(record: StoredMetadata, added: Record<string, unknown>): StoredMetadata {
  return JSON.parse(JSON.stringify({ ...JSON.parse(JSON.stringify(added)), ...record })) as StoredMetadata;
}

/** A record built from `previous` as changes build them: some of its parts carried over (the same objects), some new. */
function successor(
  previous: StoredMetadata,
  keep: boolean[],
  shuffle: boolean,
  newEntries: StoredMetadata['versions'],
  newChanges: NonNullable<StoredMetadata['changes']>,
): StoredMetadata {
  const carried = <T>(parts: readonly T[]) => parts.filter((_, index) => keep[index % keep.length] ?? true);
  const versions = [...carried(previous.versions), ...newEntries];
  const changes = [...carried(previous.changes ?? []), ...newChanges];
  if (shuffle) versions.reverse();
  return laidOut({ ...previous, versions, changes, revision: previous.revision + 1 });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

const decoder = new TextDecoder();

describe('head records', () => {
  it('encode to exactly what JSON.stringify writes, reusing the texts of the parts the next head carries over', () => {
    fc.assert(
      fc.property(
        head,
        extras,
        fc.array(fc.boolean(), { minLength: 1 }),
        fc.boolean(),
        fc.array(entry, { maxLength: 3 }),
        fc.array(change, { maxLength: 2 }),
        (record, added, keep, shuffle, newEntries, newChanges) => {
          const decoded = deepFreeze(withExtras(record, added));
          const first = encodeHead(decoded);
          expect(decoder.decode(first.bytes)).toBe(JSON.stringify(decoded));
          expect(first.texts.versions).toEqual(decoded.versions.map((part) => JSON.stringify(part)));
          const next = successor(decoded, keep, shuffle, newEntries, newChanges);
          const second = encodeHead(next, { record: decoded, texts: first.texts });
          expect(decoder.decode(second.bytes)).toBe(JSON.stringify(next));
          expect(second.texts.changes).toEqual((next.changes ?? []).map((part) => JSON.stringify(part)));
        },
      ),
    );
  });

  it('encode lists of anything as JSON.stringify does (a newer format, a damaged history)', () => {
    fc.assert(
      fc.property(head, fc.array(fc.jsonValue(), { maxLength: 5 }), (record, changes) => {
        const odd = deepFreeze(withExtras({ ...record, changes: changes as never }, {}));
        const first = encodeHead(odd);
        expect(headText(odd).text).toBe(JSON.stringify(odd));
        const next = laidOut({
          ...odd,
          changes: [...(odd.changes ?? []).slice(1), { operation: 'write', version: 1, revision: 1, time: 1 }],
        });
        expect(headText(next, { record: odd, texts: first.texts }).text).toBe(JSON.stringify(next));
      }),
    );
  });

  it('take the text of a carried-over part from the earlier head instead of writing it again', () => {
    const earlier = deepFreeze(
      laidOut(
        JSON.parse(
          '{"created":1,"updated":1,"current_version":2,"oldest_version":0,"max_versions":0,"cas_required":false,"delete_version_after":0,"custom_metadata":{},"revision":2,"spilled":0,"versions":[{"version":1,"created":1,"blob":"a"},{"version":2,"created":1,"blob":"b"}],"garbage":[],"retired":[],"changes":[{"operation":"write","version":2,"revision":2,"time":1}]}',
        ),
      ),
    );
    // Texts no encoding would write show where they were taken from.
    const texts = { versions: ['"one"', '"two"'], changes: ['"change"'] };
    const next = laidOut({
      ...earlier,
      versions: [earlier.versions[1]!, { version: 3, created: 2, blob: 'c' }],
      revision: 3,
    });
    const { text } = headText(next, { record: earlier, texts });
    expect(text).toContain('"versions":["two",{"version":3,"created":2,"blob":"c"}]');
    expect(text).toContain('"changes":["change"]');
  });

  it('freeze every entry and change they write, so that a kept text stays true', () => {
    const record = laidOut(
      JSON.parse(
        '{"created":1,"updated":1,"current_version":1,"oldest_version":0,"max_versions":0,"cas_required":false,"delete_version_after":0,"custom_metadata":{},"revision":1,"spilled":0,"versions":[{"version":1,"created":1,"blob":"b"}],"garbage":[],"retired":[],"changes":[{"operation":"write","version":1,"revision":1,"time":1}]}',
      ),
    );
    encodeHead(record);
    expect(Object.isFrozen(record.versions[0])).toBe(true);
    expect(Object.isFrozen(record.changes?.[0])).toBe(true);
    expect(() => {
      (record.versions[0] as { version: number }).version = 2;
    }).toThrow(TypeError);
  });

  it('laid out, keep every field and value, including those a newer format added', () => {
    fc.assert(
      fc.property(head, extras, (record, added) => {
        const decoded = withExtras(record, added);
        const out = laidOut(decoded);
        // Laid out in the current format: the format number is the one field it adds.
        expect(JSON.parse(JSON.stringify(out))).toEqual({
          ...JSON.parse(JSON.stringify(decoded)),
          format: headFormat.version,
        });
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      }),
    );
  });

  it('a field a newer version added to a stored head survives writes through handle()', async () => {
    const storage = testStorage();
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
