// RecentMap: at most `capacity` entries in the order their keys were last set, the oldest forgotten first.
import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../src/lib/recent-map.js';

describe('RecentMap', () => {
  it('keeps the most recently set keys, oldest first, and forgets the one set longest ago', () => {
    const map = new RecentMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    map.set('a', 4);
    expect([...map]).toEqual([
      ['b', 2],
      ['c', 3],
      ['a', 4],
    ]);
    map.set('d', 5);
    expect(map.size).toBe(3);
    expect(map.get('b')).toBeUndefined();
    expect([...map].map(([key]) => key)).toEqual(['c', 'a', 'd']);
    // The newest set again stays where it is, with its new value.
    map.set('d', 6);
    map.set('c', 7);
    expect([...map]).toEqual([
      ['a', 4],
      ['d', 6],
      ['c', 7],
    ]);
  });

  it('keeps its order and bound through many changes of one key among many', () => {
    const map = new RecentMap<string, number>(1000);
    for (let n = 0; n < 1000; n++) map.set(`k${n}`, n);
    for (let n = 0; n < 50_000; n++) map.set('k500', n);
    expect(map.size).toBe(1000);
    expect(map.get('k500')).toBe(49_999);
    const keys = [...map].map(([key]) => key);
    expect(keys.at(-1)).toBe('k500');
    expect(keys[0]).toBe('k0');
    map.set('new', 0);
    expect(map.get('k0')).toBeUndefined();
    expect([...map].length).toBe(1000);
  });

  it('forgets a deleted key, and keeps the order of the others', () => {
    const map = new RecentMap<string, number>(3);
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      map.set(key, value);
    map.delete('b');
    map.delete('missing');
    expect([...map]).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
    map.delete('a');
    map.delete('c');
    expect(map.size).toBe(0);
    map.set('d', 4);
    expect([...map]).toEqual([['d', 4]]);
  });
});
