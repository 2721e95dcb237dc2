import type { Storage } from '../../ports/storage.js';
import { check, encode, type ConformanceCase } from './checks.js';

/** Long enough for any adapter's notification to arrive on a busy machine; the cases end as soon as it does. */
const NOTIFIED_WITHIN_MS = 10_000;

/** Waits until `done()` holds, checking every 10 ms; fails with `what` past NOTIFIED_WITHIN_MS. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + NOTIFIED_WITHIN_MS;
  while (!done()) {
    check(Date.now() < deadline, `${what}: not notified within ${NOTIFIED_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A watch of `prefix` on `storage` that records the keys it is told of. */
async function recorder(storage: Storage, prefix: string) {
  const keys: string[] = [];
  const watch = await storage.watch!(prefix, { changed: (key) => keys.push(key), reset: () => undefined });
  return { keys, close: () => watch.close() };
}

export const watchCases: ConformanceCase[] = [
  {
    name: 'watch reports each key below its prefix that another handle puts, deletes or commits, and no other key',
    requires: ['watch'],
    async run(storage, sibling) {
      const writer = sibling ?? storage;
      const seen = await recorder(storage, 'watched/');
      try {
        await writer.put('other/a', encode('x'));
        await writer.put('watched/put', encode('1'));
        await writer.put('watched/deleted', encode('1'));
        await writer.delete('watched/deleted');
        if (writer.commit) await writer.commit([{ type: 'put', key: 'watched/committed', value: encode('1') }]);
        // Written last: once it is reported, every earlier change has been.
        await writer.put('watched/last', encode('1'));
        await until(() => seen.keys.includes('watched/last'), 'watched/last');
        for (const key of ['watched/put', 'watched/deleted', ...(writer.commit ? ['watched/committed'] : [])])
          check(seen.keys.includes(key), `watch: ${key} was not reported (got ${JSON.stringify(seen.keys)})`);
        check(!seen.keys.includes('other/a'), 'watch: reported other/a, outside its prefix');
      } finally {
        await seen.close();
      }
    },
  },
  {
    name: 'watch reports the changes of its own handle too, and nothing after it is closed',
    requires: ['watch'],
    async run(storage) {
      const first = await recorder(storage, '');
      await storage.put('own', encode('1'));
      await until(() => first.keys.includes('own'), 'own');
      await first.close();
      await storage.put('after-close', encode('1'));
      const second = await recorder(storage, '');
      try {
        await storage.put('marker', encode('1'));
        await until(() => second.keys.includes('marker'), 'marker');
        check(
          !first.keys.includes('after-close') && !first.keys.includes('marker'),
          'watch: a closed watch still reported changes',
        );
      } finally {
        await second.close();
      }
    },
  },
];
