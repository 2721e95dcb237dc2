import { compareKeys } from '../../lib/key-order.js';
import type { Storage, StorageOperation } from '../../ports/storage.js';
import { concurrencyCases } from './concurrency-cases.js';
import { bytes, check, checkBytes, checkEqual, type ConformanceCase } from './checks.js';

export type { ConformanceCase } from './checks.js';

/**
 * What the suite needs from an adapter under test. `create` answers an empty storage (a fresh file, table or
 * namespace); `cleanup` releases it (close connections, remove files). `sibling`, when given, opens a second handle
 * onto the same data (another connection or client), so concurrency cases run across handles as well. `S` is the
 * adapter's own type, so the callbacks can use its members (a namespace, `close()`) without casts.
 */
export interface StorageConformanceOptions<S extends Storage = Storage> {
  /** A new, empty storage for one case. */
  create: () => Promise<S>;
  /** Releases a storage after its case, each sibling too, whatever the outcome. */
  cleanup?: (storage: S) => Promise<void>;
  /** A second handle onto the data of `storage`, for the concurrency cases. */
  sibling?: (storage: S) => Promise<S>;
}

/** How one case went. */
export interface ConformanceOutcome {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it failed, or which optional member was missing. */
  message?: string;
}

/** What `runStorageConformance` answers. */
export interface ConformanceReport {
  /** Every case's outcome, in the order run. */
  outcomes: ConformanceOutcome[];
  /** The failed outcomes only. */
  failures: ConformanceOutcome[];
  /** Whether no case failed (skipped ones do not count). */
  passed: boolean;
}

const encode = (text: string) => new TextEncoder().encode(text);

/** Keys whose UTF-8 byte order differs from JavaScript's default string order and from case-folded order. */
const ORDERED_NAMES = ['B', 'a', 'a-', 'z', '~', 'é', '日本', '\uFFFD', '😀'];

async function putAll(storage: Storage, keys: readonly string[]): Promise<void> {
  for (const key of keys) await storage.put(key, encode(key));
}

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

const basicCases: ConformanceCase[] = [
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
      checkBytes(await storage.get('bin/mutable'), encode('original'), 'a value answered by get, then changed by the caller');
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
      const keys = ['ünï/cødé', '日本/語', 'emoji/😀🔑', 'quote/\'"`', 'percent/%_\\', 'pct/%_/a', 'pct/xy/b', 'space/a b', 'plus/a+b=c&d?e#f'];
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
      await putAll(storage, [...ORDERED_NAMES.map((name) => `order/${name}`), 'order/a/inner', 'order/a0', 'order/a/deep/er']);
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

const pagingCases: ConformanceCase[] = [
  {
    name: 'listPage pages a folder in list order, strictly after `after`',
    requires: ['listPage'],
    async run(storage) {
      const names = [...ORDERED_NAMES, 'a/', 'a0', 'm/'];
      await putAll(storage, [...ORDERED_NAMES.map((name) => `p/${name}`), 'p/a/1', 'p/a/2', 'p/a0', 'p/m/x/y']);
      const listed = await storage.list('p/');
      checkEqual(listed, [...names].sort(compareKeys), 'list(p/)');
      for (const limit of [1, 2, 3, 5, 100]) checkEqual(await allPages(storage, 'p/', limit, false), listed, `pages of ${limit}`);
      checkEqual(await storage.listPage!('p/', { after: 'a/', limit: 2 }), ['a0', 'm/'], 'after a sub-folder name skips its contents');
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
      for (const limit of [1, 2, 4, 100]) checkEqual(await allPages(storage, 'r/', limit, true), sorted, `recursive pages of ${limit}`);
      checkEqual(await storage.listPage!('r/', { recursive: true, after: 'a/b', limit: 2 }), ['a/b/c', 'a0'], 'recursive after a key');
      checkEqual(await storage.listPage!('r/a/', { recursive: true, limit: 10 }), ['b', 'b/c'], 'recursive below a sub-folder');
      const root = await allPages(storage, '', 3, true);
      checkEqual(root, ['r', ...relative.map((name) => `r/${name}`), 'rr/outside'].sort(compareKeys), 'recursive from the root');
    },
  },
];

const conditionalCases: ConformanceCase[] = [
  {
    name: 'compareAndPut writes only when the current value is exactly the expected one',
    requires: ['compareAndPut'],
    async run(storage) {
      const cas = storage.compareAndPut!.bind(storage);
      check(await cas('c', undefined, encode('1')), 'create when absent');
      check(!(await cas('c', undefined, encode('x'))), 'expected absent, but present');
      checkBytes(await storage.get('c'), encode('1'), 'unchanged after a failed create');
      check(!(await cas('c', encode('2'), encode('x'))), 'expected a different value');
      check(!(await cas('c', encode('1 '), encode('x'))), 'expected a longer value with the same start');
      check(!(await cas('c', new Uint8Array(0), encode('x'))), 'expected the empty value');
      check(await cas('c', encode('1'), encode('2')), 'replace the expected value');
      checkBytes(await storage.get('c'), encode('2'), 'after replacing');
      check(!(await cas('absent', encode('2'), encode('x'))), 'expected a value of a missing key');
      check((await storage.get('absent')) === undefined, 'a failed compareAndPut creates nothing');
      check(await cas('bin', undefined, bytes(300, 3)), 'binary create');
      check(await cas('bin', bytes(300, 3), new Uint8Array(0)), 'binary replace with the empty value');
      check(await cas('bin', new Uint8Array(0), encode('back')), 'the empty value is a value, not absence');
      checkEqual(await storage.list(''), ['bin', 'c'], 'list after conditional writes');
    },
  },
  {
    name: 'compareAndDelete deletes only the exact expected value',
    requires: ['compareAndDelete'],
    async run(storage) {
      await storage.put('d/k', encode('v1'));
      check(!(await storage.compareAndDelete!('d/k', encode('v2'))), 'a different value');
      check(!(await storage.compareAndDelete!('d/k', encode('v'))), 'a prefix of the value');
      checkBytes(await storage.get('d/k'), encode('v1'), 'kept after failed deletes');
      check(await storage.compareAndDelete!('d/k', encode('v1')), 'the exact value');
      check((await storage.get('d/k')) === undefined, 'gone after compareAndDelete');
      checkEqual(await storage.list(''), [], 'its folder is gone too');
      check(!(await storage.compareAndDelete!('d/k', encode('v1'))), 'a missing key');
    },
  },
  {
    name: 'commit applies puts and deletes together and reports success',
    requires: ['commit'],
    async run(storage) {
      await putAll(storage, ['t/keep', 't/old', 't/replace']);
      const operations: StorageOperation[] = [
        { type: 'put', key: 't/new', value: encode('new'), expected: null },
        { type: 'put', key: 't/replace', value: encode('replaced'), expected: encode('t/replace') },
        { type: 'put', key: 't/plain', value: bytes(1000, 5) },
        { type: 'delete', key: 't/old', expected: encode('t/old') },
        { type: 'delete', key: 't/never' },
        { type: 'delete', key: 't/absent', expected: null },
      ];
      check(await storage.commit!(operations), 'a commit whose conditions all hold');
      checkBytes(await storage.get('t/new'), encode('new'), 't/new');
      checkBytes(await storage.get('t/replace'), encode('replaced'), 't/replace');
      checkBytes(await storage.get('t/plain'), bytes(1000, 5), 't/plain');
      check((await storage.get('t/old')) === undefined, 't/old deleted');
      checkEqual(await storage.list('t/'), ['keep', 'new', 'plain', 'replace'], 'list after the commit');
      check(await storage.commit!([]), 'an empty commit');
    },
  },
  {
    name: 'commit is all or nothing: one failing condition anywhere applies nothing',
    requires: ['commit'],
    async run(storage) {
      await putAll(storage, ['n/a', 'n/b']);
      const failing: Array<[string, StorageOperation]> = [
        ['a put expecting absence of a present key', { type: 'put', key: 'n/b', value: encode('x'), expected: null }],
        ['a put expecting other bytes', { type: 'put', key: 'n/b', value: encode('x'), expected: encode('other') }],
        ['a delete expecting other bytes', { type: 'delete', key: 'n/b', expected: encode('other') }],
        ['a delete expecting bytes of a missing key', { type: 'delete', key: 'n/missing', expected: encode('x') }],
        ['a put expecting bytes of a missing key', { type: 'put', key: 'n/missing', value: encode('x'), expected: encode('x') }],
      ];
      for (const [label, last] of failing) {
        const operations: StorageOperation[] = [
          { type: 'put', key: 'n/a', value: encode('changed') },
          { type: 'delete', key: 'n/gone-if-applied', expected: null },
          { type: 'put', key: 'n/created', value: encode('created'), expected: null },
          last,
        ];
        check(!(await storage.commit!(operations)), `${label}: commit must answer false`);
        checkBytes(await storage.get('n/a'), encode('n/a'), `${label}: n/a unchanged`);
        checkBytes(await storage.get('n/b'), encode('n/b'), `${label}: n/b unchanged`);
        check((await storage.get('n/created')) === undefined, `${label}: nothing created`);
        checkEqual(await storage.list('n/'), ['a', 'b'], `${label}: listing unchanged`);
      }
    },
  },
];

/** Every case of the suite, in the order `runStorageConformance` runs them. */
export const storageConformanceCases: readonly ConformanceCase[] = [...basicCases, ...pagingCases, ...conditionalCases, ...concurrencyCases];

/**
 * Runs one case on a storage from `options.create` and releases it afterwards, whatever happened. Skips (does not fail)
 * a case that needs an optional member the storage does not have. Test runners call this once per case.
 */
export async function runConformanceCase<S extends Storage>(testCase: ConformanceCase, options: StorageConformanceOptions<S>): Promise<ConformanceOutcome> {
  const storage = await options.create();
  const handles: S[] = [];
  try {
    const missing = (testCase.requires ?? []).filter((member) => typeof storage[member] !== 'function');
    if (missing.length > 0) return { name: testCase.name, status: 'skipped', message: `the storage has no ${missing.join(', ')}` };
    const sibling = options.sibling ? await options.sibling(storage) : undefined;
    if (sibling) handles.push(sibling);
    await testCase.run(storage, sibling);
    return { name: testCase.name, status: 'passed' };
  } catch (error) {
    return { name: testCase.name, status: 'failed', message: error instanceof Error ? error.message : String(error) };
  } finally {
    for (const handle of handles) await options.cleanup?.(handle);
    await options.cleanup?.(storage);
  }
}

/** Runs the whole suite, one fresh storage per case, and reports every outcome; it never throws for a failed case. */
export async function runStorageConformance<S extends Storage>(options: StorageConformanceOptions<S>): Promise<ConformanceReport> {
  const outcomes: ConformanceOutcome[] = [];
  for (const testCase of storageConformanceCases) outcomes.push(await runConformanceCase(testCase, options));
  const failures = outcomes.filter((outcome) => outcome.status === 'failed');
  return { outcomes, failures, passed: failures.length === 0 };
}
