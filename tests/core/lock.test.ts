import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../src/core/store/lock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedMutex', () => {
  it('serialises tasks on one key in arrival order', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`start ${name}`);
      await tick();
      await tick();
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      mutex.run('k', task('a')),
      mutex.run('k', task('b')),
      mutex.run('k', task('c')),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(mutex.size).toBe(0);
  });

  it('runs different keys concurrently', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
    };
    await Promise.all([mutex.run('x', task('x')), mutex.run('y', task('y'))]);
    expect(events.slice(0, 2)).toEqual(['start x', 'start y']);
  });

  it('releases the key when a task fails', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.run('k', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(mutex.run('k', async () => 'after')).resolves.toBe('after');
    expect(mutex.size).toBe(0);
  });

  it('keeps a read-modify-write exact under many concurrent callers', async () => {
    const mutex = new KeyedMutex();
    let counter = 0;
    await Promise.all(
      Array.from({ length: 200 }, () =>
        mutex.run('counter', async () => {
          const seen = counter;
          await tick();
          counter = seen + 1;
        }),
      ),
    );
    expect(counter).toBe(200);
  });
});
