import { compareKeys } from '../../lib/key-order.js';
import type { Storage } from '../../ports/storage.js';
import { bytes, check, checkBytes, checkEqual, encode, putAll, type ConformanceCase } from './checks.js';

/** Keys whose UTF-8 byte order differs from JavaScript's default string order and from case-folded order. */
const ORDERED_NAMES = ['B', 'a', 'a-', 'z', '~', 'é', '日本', '\uFFFD', '😀'];

/** Every page of `listPage` concatenated, `limit` names at a time. */
async function allPages(storage: Storage, prefix: string, limit: number, recursive: boolean): Promise<string[]> {
  const names: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await storage.listPage!(prefix, { limit, recursive, ...(after === undefined ? {} : { after }) });
    check(page.length <= limit, `listPage(${JSON.stringify(prefix)}) answered ${page.length} names for limit ${limit}`);
    names.push(...page);
    if (page.length < limit) return names;
    after = page[page.length - 1];
  }
}

/** Reads, writes, deletes and folder listings: what every Storage must do. */
export const basicCases: ConformanceCase[] = [
  {
    name: 'get, put, overwrite and delete one key; deleting a missing key is not an error',
    async run(storage) {
      check((await storage.get('missing')) === undefined, 'get of a missing key must answer undefined');
      await storage.put('k', encode('one'));
      checkBytes(await storage.get('k'), encode('one'), 'get after put');
      await storage.put('k', encode('two'));
      checkBytes(await storage.get('k'), encode('two'), 'get after overwrite');
      await storage.delete('k');
      check((await storage.get('k')) === undefined, 'get after delete must answer undefined');
      await storage.delete('k');
      await storage.delete('never/was/there');
    },
  },
  {
    name: 'binary values of every byte, the empty value, and copies isolated from the caller',
    async run(storage) {
      const every = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
      await storage.put('bin/every', every);
      checkBytes(await storage.get('bin/every'), every, 'every byte value');
      const reversed = Uint8Array.from({ length: 256 }, (_, index) => 255 - index);
      await storage.put('bin/reversed', reversed);
      checkBytes(await storage.get('bin/reversed'), reversed, 'every byte value reversed');
      await storage.put('bin/empty', new Uint8Array(0));
      checkBytes(await storage.get('bin/empty'), new Uint8Array(0), 'the empty value (present, not undefined)');
      const mutable = encode('original');
      await storage.put('bin/mutable', mutable);
      mutable.fill(0);
      checkBytes(await storage.get('bin/mutable'), encode('original'), 'a value mutated by the caller after put');
      const view = new Uint8Array(every.buffer, 10, 20);
      await storage.put('bin/view', view);
      checkBytes(await storage.get('bin/view'), every.slice(10, 30), 'a Uint8Array view into a larger buffer');
      // Callers may reuse what get answers (EncryptedStorage writes a plaintext over it): it must be theirs alone.
      const answered = await storage.get('bin/mutable');
      answered?.fill(0);
      checkBytes(
        await storage.get('bin/mutable'),
        encode('original'),
        'a value answered by get, then changed by the caller',
      );
    },
  },
  {
    name: '1 MiB values',
    async run(storage) {
      const large = bytes(1024 * 1024, 7);
      await storage.put('large/one', large);
      checkBytes(await storage.get('large/one'), large, '1 MiB value');
      const other = bytes(1024 * 1024, 11);
      await storage.put('large/one', other);
      checkBytes(await storage.get('large/one'), other, '1 MiB value overwritten');
    },
  },
  {
    name: 'unicode and punctuation in keys',
    async run(storage) {
      const keys = [
        'ünï/cødé',
        '日本/語',
        'emoji/😀🔑',
        'quote/\'"`',
        'percent/%_\\',
        'pct/%_/a',
        'pct/xy/b',
        'space/a b',
        'plus/a+b=c&d?e#f',
      ];
      await putAll(storage, keys);
      for (const key of keys) checkBytes(await storage.get(key), encode(key), `get(${JSON.stringify(key)})`);
      checkEqual(await storage.list('emoji/'), ['😀🔑'], 'list of a folder with an emoji leaf');
      check((await storage.get('percent/%')) === undefined, 'keys are matched exactly, never as LIKE patterns');
      checkEqual(await storage.list('pct/%_/'), ['a'], 'a prefix is matched exactly, never as a LIKE pattern');
      checkEqual(await storage.list('pct/'), ['%_/', 'xy/'], 'sub-folders with pattern characters');
    },
  },
  {
    name: 'list answers direct children sorted by UTF-8 byte order, sub-folders once with a trailing slash',
    async run(storage) {
      await putAll(storage, [
        ...ORDERED_NAMES.map((name) => `order/${name}`),
        'order/a/inner',
        'order/a0',
        'order/a/deep/er',
      ]);
      const expected = [...ORDERED_NAMES, 'a/', 'a0'].sort(compareKeys);
      checkEqual(expected.slice(0, 4), ['B', 'a', 'a-', 'a/'], 'the expected order itself');
      checkEqual(await storage.list('order/'), expected, 'list(order/)');
      checkEqual(await storage.list('order/a/'), ['deep/', 'inner'], 'list(order/a/)');
      checkEqual(await storage.list(''), ['order/'], 'list of the root');
      checkEqual(await storage.list('nothing/'), [], 'list of a missing folder');
      checkEqual(await storage.list('order/a/deep/er/'), [], 'list below a leaf');
    },
  },
  {
    name: 'folders disappear from listings once their last key is deleted',
    async run(storage) {
      await putAll(storage, ['f/x/y/z', 'f/x/w', 'f/leaf']);
      await storage.delete('f/x/y/z');
      checkEqual(await storage.list('f/'), ['leaf', 'x/'], 'after deleting the only key of f/x/y/');
      checkEqual(await storage.list('f/x/'), ['w'], 'f/x/ keeps its leaf');
      await storage.delete('f/x/w');
      checkEqual(await storage.list('f/'), ['leaf'], 'after emptying f/x/');
      await storage.delete('f/leaf');
      checkEqual(await storage.list(''), [], 'the root after deleting everything');
    },
  },
];

/** The optional paged listing, of one folder and recursive. */
export const pagingCases: ConformanceCase[] = [
  {
    name: 'listPage pages a folder in list order, strictly after `after`',
    requires: ['listPage'],
    async run(storage) {
      const names = [...ORDERED_NAMES, 'a/', 'a0', 'm/'];
      await putAll(storage, [...ORDERED_NAMES.map((name) => `p/${name}`), 'p/a/1', 'p/a/2', 'p/a0', 'p/m/x/y']);
      const listed = await storage.list('p/');
      checkEqual(listed, [...names].sort(compareKeys), 'list(p/)');
      for (const limit of [1, 2, 3, 5, 100])
        checkEqual(await allPages(storage, 'p/', limit, false), listed, `pages of ${limit}`);
      checkEqual(
        await storage.listPage!('p/', { after: 'a/', limit: 2 }),
        ['a0', 'm/'],
        'after a sub-folder name skips its contents',
      );
      checkEqual(await storage.listPage!('p/', { after: 'a.', limit: 1 }), ['a/'], 'after a name that is not stored');
      checkEqual(await storage.listPage!('p/', { after: '😀', limit: 5 }), [], 'after the last name');
      checkEqual(await storage.listPage!('missing/', { limit: 5 }), [], 'a missing folder');
      checkEqual(await storage.listPage!('', { limit: 5 }), ['p/'], 'the root');
    },
  },
  {
    name: 'listPage recursive answers every key below the prefix, relative and sorted, without folder names',
    requires: ['listPage'],
    async run(storage) {
      const relative = ['a', 'a/b', 'a/b/c', 'a-b', 'a0', 'é/x', '😀', '\uFFFD/deep/key', 'z/z/z/z'];
      await putAll(storage, [...relative.map((name) => `r/${name}`), 'rr/outside', 'r']);
      const sorted = [...relative].sort(compareKeys);
      for (const limit of [1, 2, 4, 100])
        checkEqual(await allPages(storage, 'r/', limit, true), sorted, `recursive pages of ${limit}`);
      checkEqual(
        await storage.listPage!('r/', { recursive: true, after: 'a/b', limit: 2 }),
        ['a/b/c', 'a0'],
        'recursive after a key',
      );
      checkEqual(
        await storage.listPage!('r/a/', { recursive: true, limit: 10 }),
        ['b', 'b/c'],
        'recursive below a sub-folder',
      );
      const root = await allPages(storage, '', 3, true);
      checkEqual(
        root,
        ['r', ...relative.map((name) => `r/${name}`), 'rr/outside'].sort(compareKeys),
        'recursive from the root',
      );
    },
  },
];
