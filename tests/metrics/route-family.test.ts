// The labels of the request metrics: a route family names the endpoint and its operation and never anything a client
// chose, so the label set stays small whatever the paths; and the storage decorator keeps the storage's shape.
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { Storage } from '../../src/ports/storage.js';
import {
  bothWatchers,
  observedStorage,
  timedCalls,
  type StorageObserver,
} from '../../src/server/metrics/metered-storage.js';
import { loginMethod, routeFamily, statusClass } from '../../src/server/metrics/route-family.js';

describe('routeFamily', () => {
  it.each([
    ['secret/data/app/db', 'secret/data'],
    ['secret/metadata/', 'secret/metadata'],
    ['secret/destroy/x', 'secret/destroy'],
    ['secret/anything-else/x', 'secret/other'],
    ['auth/token/lookup-self', 'auth/token/lookup'],
    ['auth/token/renew/sr.some-token', 'auth/token/renew'],
    ['auth/token/revoke-accessor', 'auth/token/revoke'],
    ['auth/token/sr.abc', 'auth/token/other'],
    ['auth/cloud/login', 'auth/cloud/login'],
    ['auth/cloud/role/web', 'auth/cloud/other'],
    ['auth/aws/login', 'auth/aws/login'],
    ['auth/aws/role/web', 'auth/aws/other'],
    ['auth/aws-test/login', 'other'],
    ['sys/policies/acl/admin', 'sys/policies'],
    ['sys/events/subscribe/secret', 'sys/events'],
    ['sys/metrics', 'sys/metrics'],
    ['sys/wrapping/unwrap', 'sys/wrapping'],
    ['auth/token/roles/web', 'auth/token/roles'],
    ['auth/token/create/web', 'auth/token/create'],
    ['sys/secret-name-here', 'sys/other'],
    ['elsewhere/data/x', 'other'],
  ])('%s is in %s', (path, family) => {
    expect(routeFamily(path)).toBe(family);
  });

  it('takes a bounded set of values whatever the paths', () => {
    const families = new Set<string>();
    for (let i = 0; i < 500; i++) {
      for (const shape of ['secret/%/x', 'auth/token/%', 'auth/cloud/%', 'sys/%', '%/data/x', 'auth/%/login'])
        families.add(routeFamily(shape.replace('%', `name-${i}`)));
    }
    expect(families).toEqual(new Set(['secret/other', 'auth/token/other', 'auth/cloud/other', 'sys/other', 'other']));
  });
});

describe('statusClass and loginMethod', () => {
  it('classes statuses, and tells an abandoned request', () => {
    expect([200, 204, 403, 429, 500, 503, undefined].map(statusClass)).toEqual([
      '2xx',
      '2xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
      'closed',
    ]);
  });

  it('tells iam from ec2 logins by their fields', () => {
    expect(loginMethod({ iam_http_request_method: 'POST', iam_request_url: 'x' })).toBe('iam');
    expect(loginMethod({ pkcs7: 'x', role: 'web' })).toBe('ec2');
    expect(loginMethod({ identity: 'x', signature: 'y' })).toBe('ec2');
    expect(loginMethod({ role: 'web' })).toBe('unknown');
    expect(loginMethod('not an object')).toBe('unknown');
  });
});

/** Every call the second watcher was told of, with whether it failed: the same calls the timing reports. */
const alsoTold: [string, boolean][] = [];

/** The storage as the server wraps it: timed, and a second watcher told of the same calls. */
const meteredStorage = (storage: Storage, observe: StorageObserver) =>
  observedStorage(
    storage,
    bothWatchers(timedCalls(observe), (operation) => (error) => void alsoTold.push([operation, error !== undefined])),
  );

describe('observedStorage with timedCalls', () => {
  it('offers only the members the storage has, passes answers and errors through, and reports each call', async () => {
    const calls: [string, boolean][] = [];
    const inner = new MemoryStorage();
    const metered = meteredStorage(inner, (operation, seconds, failed) => {
      expect(seconds).toBeGreaterThanOrEqual(0);
      calls.push([operation, failed]);
    });
    for (const name of ['compareAndPut', 'commit', 'listPage', 'watch'] as const)
      expect(typeof metered[name]).toBe(typeof (inner as Storage)[name]);
    await metered.put('a/b', new Uint8Array([1]));
    expect(await metered.get('a/b')).toEqual(new Uint8Array([1]));
    expect(await metered.list('a/')).toEqual(['b']);

    const broken = meteredStorage(
      {
        get: () => Promise.reject(new Error('disk gone')),
        put: () => Promise.resolve(),
        delete: () => Promise.resolve(),
        list: () => Promise.resolve([]),
      },
      (operation, _seconds, failed) => calls.push([operation, failed]),
    );
    expect(broken.commit).toBeUndefined();
    await expect(broken.get('x')).rejects.toThrow('disk gone');
    // A storage that throws rather than rejecting: still a rejection for the caller, and a failed call for the metrics.
    const throwing = meteredStorage(
      {
        get: () => {
          throw new Error('driver fault');
        },
        put: () => Promise.resolve(),
        delete: () => Promise.resolve(),
        list: () => Promise.resolve([]),
      },
      (operation, _seconds, failed) => calls.push([operation, failed]),
    );
    await expect(throwing.get('x')).rejects.toThrow('driver fault');
    expect(calls).toEqual([
      ['put', false],
      ['get', false],
      ['list', false],
      ['get', true],
      ['get', true],
    ]);
    expect(alsoTold).toEqual(calls);
  });
});
