// A value decoded from bytes is answered again only for the very same bytes, frozen so that no caller can change what
// the next one reads; anything else is decoded afresh.
import { describe, expect, it } from 'vitest';
import { DecodedMemo, deepFreeze } from '../../src/lib/decoded-memo.js';

const bytesOf = (text: string) => new TextEncoder().encode(text);
const parse = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as { list: number[] };

describe('DecodedMemo', () => {
  it('answers the value decoded before for the same bytes, and decodes other bytes afresh', () => {
    const memo = new DecodedMemo<{ list: number[] }>(10);
    let decodes = 0;
    const decode = (bytes: Uint8Array) => (decodes++, parse(bytes));
    const first = memo.decode('k', bytesOf('{"list":[1]}'), decode);
    // Equal bytes in another array: a storage answers each read with bytes of its own.
    expect(memo.decode('k', bytesOf('{"list":[1]}'), decode)).toBe(first);
    expect(decodes).toBe(1);
    const changed = memo.decode('k', bytesOf('{"list":[2]}'), decode);
    expect(changed).toEqual({ list: [2] });
    expect(decodes).toBe(2);
  });

  it('hands out values frozen all through', () => {
    const value = new DecodedMemo<{ list: number[] }>(10).decode('k', bytesOf('{"list":[1]}'), parse);
    expect(Object.isFrozen(value) && Object.isFrozen(value.list)).toBe(true);
    expect(() => value.list.push(2)).toThrow(TypeError);
  });

  it('remembers nothing of a decode that throws, and keeps only the keys read last', () => {
    const memo = new DecodedMemo<{ list: number[] }>(2);
    expect(() => memo.decode('k', bytesOf('not json'), parse)).toThrow(SyntaxError);
    expect(() => memo.decode('k', bytesOf('not json'), parse)).toThrow(SyntaxError);
    let decodes = 0;
    const decode = (bytes: Uint8Array) => (decodes++, parse(bytes));
    for (const key of ['a', 'b', 'c']) memo.decode(key, bytesOf('{"list":[]}'), decode);
    memo.decode('a', bytesOf('{"list":[]}'), decode);
    expect(decodes).toBe(4);
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays, and takes a frozen object as frozen all through', () => {
    const value = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
    const outer = Object.freeze({ inner: { open: true } });
    deepFreeze(outer);
    expect(Object.isFrozen(outer.inner)).toBe(false);
  });
});
