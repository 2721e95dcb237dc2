import { describe, expect, it } from 'vitest';
import { promiseOf, rejected } from '../../src/lib/calls.js';

describe('promiseOf', () => {
  it('answers the very promise the call makes', async () => {
    const made = Promise.resolve(7);
    expect(promiseOf(() => made)).toBe(made);
    expect(await promiseOf(() => made)).toBe(7);
  });

  it('turns a throw before any promise is made into a rejection with exactly what was thrown', async () => {
    const error = new RangeError('bad key');
    let thrown: unknown;
    expect(() => {
      thrown = promiseOf(() => {
        throw error;
      });
    }).not.toThrow();
    await expect(thrown).rejects.toBe(error);
    // Not only Errors: whatever a caller throws is what an async function would have rejected with.
    await expect(
      promiseOf(() => {
        throw 'text'; // eslint-disable-line @typescript-eslint/only-throw-error
      }),
    ).rejects.toBe('text');
  });

  it('rejected() rejects with its argument', async () => {
    const reason = { code: 'SQLITE_CORRUPT' };
    await expect(rejected(reason)).rejects.toBe(reason);
  });
});
