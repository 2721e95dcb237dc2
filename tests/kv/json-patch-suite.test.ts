import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../../src/lib/errors.js';
import { isPlainObject } from '../../src/core/framework/fields.js';
import { applyJsonPatch, jsonPatchOperations } from '../../src/kv/values/json-patch.js';
import { DEFAULT_MAX_VALUE_BYTES, MAX_DATA_DEPTH } from '../../src/kv/values/value-limits.js';
import { dataOf, JSON_PATCH, setup } from './helpers.js';

/**
 * The RFC 6902 community test suite (tests/fixtures/json-patch-tests/README.md: repository, commit, licence), run
 * through the applier and through PATCH data/<key>. Every record passes, or is named below with why it cannot apply.
 */

interface SuiteRecord {
  comment?: string;
  doc?: unknown;
  patch?: unknown;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

const load = (file: string): SuiteRecord[] =>
  JSON.parse(readFileSync(new URL(`../fixtures/json-patch-tests/${file}`, import.meta.url), 'utf8'));
const records = ['tests.json', 'spec_tests.json'].flatMap((file) =>
  load(file).map((record, index) => ({ name: `${file} #${index}`, ...record })),
);

/**
 * Records that apply to neither: each writes the member "op" twice, which JSON.parse collapses to its last value, so
 * the parsed record is a different, valid patch (the suite disables them for the same reason).
 */
const UNPARSABLE = new Map([
  ['tests.json #85', 'duplicate "op" members'],
  ['spec_tests.json #13', 'duplicate "op" members (A.13)'],
]);

const LIMITS = { maxBytes: DEFAULT_MAX_VALUE_BYTES, maxDepth: MAX_DATA_DEPTH };

/** What the applier does with a record, as the engine calls it: the operations are parsed first, then applied. */
function throughApplier(record: SuiteRecord): { result: unknown } | { refused: string } {
  const parsed = jsonPatchOperations.safeParse(record.patch);
  if (!parsed.success) return { refused: parsed.error.issues.map((issue) => issue.message).join('; ') };
  try {
    return { result: applyJsonPatch(record.doc, parsed.data, LIMITS) };
  } catch (error) {
    if (error instanceof InvalidRequest) return { refused: error.message };
    throw error;
  }
}

/** Why a record cannot go through PATCH data/, if it cannot: a version's data is always an object. */
function notForPatch(record: SuiteRecord): string | undefined {
  if (!isPlainObject(record.doc)) return 'the document is not an object, which data can never be';
  if ('expected' in record && !isPlainObject(record.expected))
    return 'the result is not an object, which data can never be (PATCH answers 400)';
  return undefined;
}

const applicable = records.filter((record) => !UNPARSABLE.has(record.name) && record.doc !== undefined);

describe('the RFC 6902 community suite', () => {
  it('is whole: every record is run, or named with its reason', () => {
    expect(records).toHaveLength(112);
    expect(applicable).toHaveLength(records.length - UNPARSABLE.size);
    // Counted, so that a new copy of the suite that changes them is noticed.
    expect(applicable.filter((record) => notForPatch(record) !== undefined)).toHaveLength(36);
  });

  it.each(applicable)('$name through the applier: $comment', (record) => {
    const outcome = throughApplier(record);
    if (record.error !== undefined) {
      expect(outcome).toHaveProperty('refused');
      return;
    }
    expect(outcome).not.toHaveProperty('refused');
    if ('expected' in record) expect((outcome as { result: unknown }).result).toEqual(record.expected);
  });

  it.each(applicable.filter((record) => notForPatch(record) === undefined))(
    '$name through PATCH data/: $comment',
    async (record) => {
      const env = setup();
      expect((await env.W('k', record.doc)).status).toBe(200);
      const response = await env.PATCH('k', { data: record.patch }, JSON_PATCH);
      const stored = dataOf(await env.R('k'));
      if (record.error !== undefined) {
        expect(response.status).toBe(400);
        expect(stored.metadata.version).toBe(1);
        return;
      }
      expect(response.status).toBe(200);
      expect(stored.metadata.version).toBe(2);
      expect(stored.data).toEqual('expected' in record ? record.expected : stored.data);
    },
  );

  it.each(
    applicable
      .filter((record) => notForPatch(record) !== undefined)
      .map((record) => ({ ...record, reason: notForPatch(record) })),
  )('$name does not apply to PATCH data/: $reason', async (record) => {
    // Where the document is an object but the result is not, PATCH refuses the result, and nothing changes.
    if (!isPlainObject(record.doc)) return;
    const env = setup();
    await env.W('k', record.doc);
    expect((await env.PATCH('k', { data: record.patch }, JSON_PATCH)).status).toBe(400);
    expect(dataOf(await env.R('k')).data).toEqual(record.doc);
  });
});
