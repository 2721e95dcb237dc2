// Vault's rules for mount paths and tunes, as pure functions: what is refused, with which words.
import { describe, expect, it } from 'vitest';
import { Conflict, InvalidRequest, PermissionDenied } from '../../../src/lib/errors.js';
import type { MountDefinition } from '../../../src/server/mounts/mount-definition.js';
import { checkMountPath, normalisedPath } from '../../../src/server/mounts/mount-paths.js';
import { parseKvVersion, tunedDefinition, upgradesKv } from '../../../src/server/mounts/mount-tuning.js';

const mount = (path: string, more: Partial<MountDefinition> = {}): MountDefinition => ({
  uuid: path,
  path,
  type: 'kv',
  description: '',
  accessor: 'kv_00000000',
  storagePrefix: `logical/${path}`,
  options: { version: '2' },
  defaultLeaseTtl: 0,
  maxLeaseTtl: 0,
  ...more,
});
const TABLE = [mount('secret/'), mount('team/app/'), mount('auth/aws/', { type: 'aws', options: null })];

function refusal(run: () => void): [string, string] {
  try {
    run();
  } catch (error) {
    return [(error as Error).constructor.name, (error as Error).message];
  }
  return ['none', ''];
}

describe('mount paths', () => {
  it.each([
    ['/kv', 'kv/'],
    ['kv/', 'kv/'],
    ['a/b', 'a/b/'],
  ])('normalises %s to %s', (given, path) => expect(normalisedPath(given)).toBe(path));

  it.each([
    ['kv/', 'none', ''],
    ['team/', Conflict.name, 'path is already in use at team/app/'],
    ['team/app/x/', Conflict.name, 'path is already in use at team/app/'],
    ['secret/', Conflict.name, 'path is already in use at secret/'],
    ['secretive/', 'none', ''],
    ['sys/', PermissionDenied.name, 'cannot mount "sys/"'],
    ['sys/x/', PermissionDenied.name, 'cannot mount "sys/x/"'],
    ['identity/', PermissionDenied.name, 'cannot mount "identity/"'],
    ['a/./b/', InvalidRequest.name, "path 'a/./b/' does not match its cleaned form"],
    ['a\u0007/', InvalidRequest.name, 'path cannot contain non-printable characters'],
    [`${'x'.repeat(600)}/`, InvalidRequest.name, 'path must be at most 512 characters'],
    ['auth/aws/', Conflict.name, 'path is already in use at aws/'],
    ['auth/aws-test/', 'none', ''],
    ['auth/token/', Conflict.name, 'path is already in use at token/'],
    ['auth/', InvalidRequest.name, 'path must be specified as a string'],
  ])('%s: %s %s', (path, error, message) => {
    expect(refusal(() => checkMountPath(path, TABLE))).toEqual([error, message]);
  });
});

describe('tunes', () => {
  it('keeps what a tune leaves out, and takes "0" TTLs as the system’s', () => {
    const tuned = tunedDefinition(mount('kv/', { defaultLeaseTtl: 60, description: 'kept' }), { maxLeaseTtl: 120 });
    expect(tuned).toMatchObject({
      defaultLeaseTtl: 60,
      maxLeaseTtl: 120,
      description: 'kept',
      options: { version: '2' },
    });
    expect(tunedDefinition(tuned, { defaultLeaseTtl: 0, maxLeaseTtl: 0 })).toMatchObject({ defaultLeaseTtl: 0 });
  });

  it('merges options: an empty value removes a key, never the version', () => {
    const tuned = tunedDefinition(mount('kv/', { options: { version: '2', extra: 'x' } }), {
      options: { extra: '', other: 'y' },
    });
    expect(tuned.options).toEqual({ version: '2', other: 'y' });
  });

  it('takes a KV mount from version 1 to 2, never back, and only KV mounts', () => {
    const v1 = mount('kv/', { options: { version: '1' } });
    expect(upgradesKv(v1, { options: { version: '2' } })).toBe(true);
    expect(upgradesKv(mount('kv/'), { options: { version: '2' } })).toBe(false);
    expect(tunedDefinition(v1, { options: { version: '2' } }).options).toEqual({ version: '2' });
    expect(refusal(() => tunedDefinition(mount('kv/'), { options: { version: '1' } }))).toEqual([
      InvalidRequest.name,
      'cannot downgrade mount from version 2',
    ]);
    expect(
      refusal(() => tunedDefinition(mount('auth/x/', { type: 'aws', options: null }), { options: { version: '2' } })),
    ).toEqual([InvalidRequest.name, 'secrets engine "aws" does not allow setting a version']);
  });

  it.each([
    ['1', '1'],
    [' 2 ', '2'],
  ])('reads version %j as %s', (given, version) => expect(parseKvVersion(given)).toBe(version));
  it.each(['0', '3', 'v2', ''])('refuses version %j', (given) =>
    expect(() => parseKvVersion(given)).toThrow(`invalid version provided: ${JSON.stringify(given)}`),
  );
});
