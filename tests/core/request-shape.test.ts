import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../../src/lib/errors.js';
import { checkJsonDocument, MAX_JSON_DEPTH } from '../../src/core/framework/request-shape.js';

describe('checkJsonDocument', () => {
  it('accepts flat bodies and bodies of flat objects and lists, shared members included', () => {
    const shared = { x: 1 };
    for (const body of [
      {},
      { a: 1, b: 'x', c: null, d: true },
      { data: { user: 'u', port: 1 } },
      { data: shared, other: shared, list: [1, 'a', null] },
    ]) {
      expect(() => checkJsonDocument(body, 'the body')).not.toThrow();
    }
  });

  it('refuses a BigInt or a cycle at any level, the second level included', () => {
    const inner: Record<string, unknown> = { a: 1 };
    const body: Record<string, unknown> = { data: inner };
    inner.back = body;
    const self: Record<string, unknown> = {};
    self.self = self;
    for (const [document, fragment] of [
      [{ n: 1n }, 'BigInt'],
      [{ data: { n: 1n } }, 'BigInt'],
      [{ data: [1, 2n] }, 'BigInt'],
      [body, 'contains itself'],
      [self, 'contains itself'],
      [{ data: { deeper: { n: 1n } } }, 'BigInt'],
    ] as const) {
      expect(() => checkJsonDocument(document, 'the body')).toThrow(InvalidRequest);
      expect(() => checkJsonDocument(document, 'the body')).toThrow(fragment);
    }
  });

  it('refuses a body nested deeper than the limit', () => {
    let deep: unknown = 1;
    for (let level = 0; level <= MAX_JSON_DEPTH; level++) deep = { deep };
    expect(() => checkJsonDocument(deep, 'the body')).toThrow(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  });
});
