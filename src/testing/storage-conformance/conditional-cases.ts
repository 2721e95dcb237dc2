import type { StorageOperation } from '../../ports/storage.js';
import { bytes, check, checkBytes, checkEqual, encode, putAll, type ConformanceCase } from './checks.js';

/** The cases of the optional conditional members: compareAndPut, compareAndDelete and commit. */
export const conditionalCases: ConformanceCase[] = [
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
        [
          'a put expecting bytes of a missing key',
          { type: 'put', key: 'n/missing', value: encode('x'), expected: encode('x') },
        ],
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
