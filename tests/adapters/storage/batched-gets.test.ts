import { describe, expect, it } from 'vitest';
import { BatchedGets } from '../../../src/adapters/storage/batched-gets.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('BatchedGets', () => {
  it('answers the reads of one turn with one fetch of their distinct keys, and later reads with another', async () => {
    const fetches: string[][] = [];
    const reads = new BatchedGets(async (keys) => {
      fetches.push([...keys]);
      return new Map(keys.filter((key) => key !== 'absent').map((key) => [key, bytes(key)]));
    });
    const answers = await Promise.all(['a', 'b', 'a', 'absent'].map((key) => reads.get(key)));
    expect(answers.map((answer) => answer && new TextDecoder().decode(answer))).toEqual(['a', 'b', 'a', undefined]);
    expect(answers[0]).not.toBe(answers[2]);
    expect(fetches).toEqual([['a', 'b', 'absent']]);
    await reads.get('c');
    expect(fetches).toEqual([['a', 'b', 'absent'], ['c']]);
  });

  it('splits a large turn into fetches of at most 100 keys', async () => {
    const sizes: number[] = [];
    const reads = new BatchedGets(async (keys) => (sizes.push(keys.length), new Map()));
    await Promise.all(Array.from({ length: 250 }, (_, index) => reads.get(`k${index}`)));
    expect(sizes).toEqual([100, 100, 50]);
  });

  it('rejects every read of a failed fetch, and the next turn fetches again', async () => {
    let fail = true;
    const reads = new BatchedGets(async (keys) => {
      if (fail) throw new Error('database unreachable');
      return new Map(keys.map((key) => [key, bytes(key)]));
    });
    const failed = await Promise.allSettled([reads.get('a'), reads.get('b')]);
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await reads.get('a')).toEqual(bytes('a'));
  });
});
