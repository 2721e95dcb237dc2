import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clocks.js';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import { InternalError, InvalidRequest, NotFound } from '../../src/lib/errors.js';
import { KvEngine } from '../../src/kv/index.js';
import { FaultyStorage } from '../support/faulty-storage.js';
import { testStorage } from '../support/test-storage.js';

function engine() {
  return new KvEngine({ storage: testStorage(), clock: new ManualClock('2026-03-01T12:00:00Z') });
}

describe('typed methods', () => {
  it('write, read, patch (both formats) and subkeys share the rules of handle()', async () => {
    const kv = engine();
    const written = await kv.write('app/db', { user: 'u', password: 'p', opts: { tls: true } }, { cas: 0 });
    expect(written).toEqual({
      metadata: {
        created_time: '2026-03-01T12:00:00Z',
        custom_metadata: null,
        deletion_time: '',
        destroyed: false,
        version: 1,
      },
      warnings: [],
    });
    await kv.patch('app/db', { password: null, port: 5432 }, { cas: 1 });
    await kv.patch('app/db', [{ op: 'replace', path: '/user', value: 'v' }], { format: 'json-patch' });
    expect((await kv.read('app/db')).data).toEqual({ user: 'v', opts: { tls: true }, port: 5432 });
    expect((await kv.read('app/db', { version: 1 })).data).toEqual({ user: 'u', password: 'p', opts: { tls: true } });
    expect((await kv.subkeys('app/db', { depth: 1 })).subkeys).toEqual({ user: null, opts: null, port: null });
    expect(await kv.list()).toEqual(['app/']);
    expect(await kv.list('app')).toEqual(['db']);
    expect(await kv.list('nothing/here')).toEqual([]);
  });

  it('patch answers what write answers: the new version metadata and the warnings, nothing else', async () => {
    const kv = engine();
    await kv.write('k', { a: 1 });
    const metadata = {
      created_time: '2026-03-01T12:00:00Z',
      custom_metadata: null,
      deletion_time: '',
      destroyed: false,
    };
    expect(await kv.patch('k', { b: 2 })).toStrictEqual({ metadata: { ...metadata, version: 2 }, warnings: [] });
    expect(await kv.patch('k', [{ op: 'remove', path: '/a' }], { format: 'json-patch' })).toStrictEqual({
      metadata: { ...metadata, version: 3 },
      warnings: [],
    });
  });

  it('reject with typed errors where handle() answers 4xx', async () => {
    const kv = engine();
    await expect(kv.read('missing')).rejects.toBeInstanceOf(NotFound);
    await kv.write('k', { a: 1 });
    await expect(kv.write('k', { a: 2 }, { cas: 0 })).rejects.toThrow(
      new InvalidRequest('check-and-set parameter did not match the current version'),
    );
    await expect(kv.write('k', null as unknown as Record<string, unknown>)).rejects.toBeInstanceOf(InvalidRequest);
    await expect(kv.write('k/', { a: 1 })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(kv.write('a/../b', { a: 1 })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(kv.read('k', { version: 'x' as unknown as number })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(kv.patch('missing', {})).rejects.toBeInstanceOf(NotFound);
    await expect(
      kv.patch('k', [{ op: 'test', path: '/a', value: 9 }], { format: 'json-patch' }),
    ).rejects.toBeInstanceOf(InvalidRequest);
    for (const format of ['jsonpatch', 'json_patch', 'JSON-PATCH', null]) {
      await expect(kv.patch('k', { a: 3 }, { format: format as 'merge' })).rejects.toThrow(
        new InvalidRequest(
          `invalid value for option "format": expected "merge" or "json-patch", got ${JSON.stringify(format)}`,
        ),
      );
    }
    expect((await kv.read('k')).data).toEqual({ a: 1 });
    await expect(kv.deleteVersions('k', [])).rejects.toThrow('No version number provided');
    await expect(kv.writeMetadata('k', { custom_metadata: { '': 'x' } })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(kv.patchMetadata('missing', { max_versions: 1 })).rejects.toBeInstanceOf(NotFound);
    await expect(kv.readMetadata('missing')).rejects.toBeInstanceOf(NotFound);
    await expect(kv.writeConfig({ max_versions: -3 })).rejects.toBeInstanceOf(InvalidRequest);
  });

  it('refuse a value JSON would silently drop or change (a Map became {}), and store nothing', async () => {
    const kv = engine();
    const refused: Array<[unknown, string]> = [
      [new Map([['password', 's3cret']]), 'a Map'],
      [new Set(['s3cret']), 'a Set'],
      [new Date(0), 'a Date'],
      [new Uint8Array([1, 2]), 'a Uint8Array'],
      [Buffer.from('s3cret'), 'a Buffer'],
      [() => 's3cret', 'a function'],
      [Symbol('s3cret'), 'a symbol'],
      [Number.NaN, 'the number NaN'],
      [Number.POSITIVE_INFINITY, 'the number Infinity'],
    ];
    for (const [value, what] of refused) {
      const message = `the input is not JSON: it holds ${what}`;
      await expect(kv.write('k', { value })).rejects.toThrow(new InvalidRequest(message));
      await expect(kv.write('k', { nested: { list: [value] } })).rejects.toThrow(new InvalidRequest(message));
      const body = { data: { value } };
      expect(await kv.handle({ method: 'POST', path: 'data/k', body })).toEqual({
        status: 400,
        body: { errors: [`the request body is not JSON: it holds ${what}`] },
      });
    }
    expect(await kv.list()).toEqual([]);
    // What JSON itself has no trouble with stays accepted: absent members, objects without a prototype.
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { user: 'u' });
    await kv.write('k', { password: 'p', note: undefined, bare });
    expect((await kv.read('k')).data).toEqual({ password: 'p', bare: { user: 'u' } });
  });

  it('name the reason when a version is hidden', async () => {
    const kv = engine();
    await kv.write('k', { a: 1 });
    await kv.write('k', { a: 2 });
    await kv.deleteLatest('k');
    await kv.destroyVersions('k', [1]);
    await expect(kv.read('k')).rejects.toThrow('version 2 of "k" is deleted');
    await expect(kv.read('k', { version: 1 })).rejects.toThrow('version 1 of "k" is destroyed');
    await expect(kv.patch('k', { b: 1 })).rejects.toThrow('version 2 of "k" is deleted');
    await kv.undeleteVersions('k', [2]);
    expect((await kv.read('k')).data).toEqual({ a: 2 });
  });

  it('manage config and metadata, with warnings', async () => {
    const kv = engine();
    await kv.writeConfig({ cas_required: true, delete_version_after: '1h' });
    expect(await kv.readConfig()).toEqual({
      cas_required: true,
      delete_version_after: '1h0m0s',
      destroy_version_after: '0s',
      max_versions: 0,
      metadata_cas_required: false,
    });
    expect(
      (await kv.writeMetadata('k', { cas_required: false, custom_metadata: { team: 'a' } })).warnings,
    ).toHaveLength(1);
    expect(await kv.patchMetadata('k', { custom_metadata: { env: 'prod' } })).toEqual({ warnings: [] });
    const metadata = await kv.readMetadata('k');
    expect(metadata.custom_metadata).toEqual({ team: 'a', env: 'prod' });
    await kv.write('k', { a: 1 }, { cas: 0 });
    expect((await kv.read('k')).metadata.deletion_time).toBe('2026-03-01T13:00:00Z');
    await kv.deleteMetadata('k');
    await expect(kv.readMetadata('k')).rejects.toBeInstanceOf(NotFound);
  });

  it('list pages and filters', async () => {
    const kv = engine();
    for (const name of ['a', 'b', 'c']) await kv.write(name, { name });
    await kv.deleteLatest('b');
    expect(await kv.list('', { after: 'a', limit: 1 })).toEqual(['b']);
    expect(await kv.list('', { excludeDeleted: true })).toEqual(['a', 'c']);
  });

  it('reject with InternalError when the storage fails', async () => {
    const faulty = new FaultyStorage(new MemoryStorage());
    const kv = new KvEngine({ storage: faulty });
    faulty.arm(1);
    await expect(kv.write('k', { a: 1 })).rejects.toBeInstanceOf(InternalError);
  });
});
