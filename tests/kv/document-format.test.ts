import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InternalError } from '../../src/lib/errors.js';
import { CorruptDocument } from '../../src/core/store/stored-json.js';
import { documentFormat } from '../../src/kv/documents/document-format.js';
import { entryData, entryFormat } from '../../src/kv/documents/entry-document.js';
import { headFormat, headHistory } from '../../src/kv/documents/head-document.js';
import { configFormat } from '../../src/kv/documents/config-document.js';
import { dataOf, setup } from './helpers.js';

/** The definition every stored KV document is read through: format versions, upgrade steps, defaults, shapes. */

// A document kind in its third format: format 1 named the field `name`, format 2 renamed it `title`, format 3 added
// `tags`. Each step is written against the format it knew.
const pets = documentFormat({
  shape: z.object({ title: z.string(), tags: z.array(z.string()) }),
  upgrades: [({ name, ...rest }) => ({ ...rest, title: name }), (older) => ({ ...older, tags: [] })],
});

const settings = documentFormat({
  shape: z.object({ limit: z.number(), label: z.string() }),
  defaults: { label: 'none' },
});

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('stored document formats', () => {
  it('upgrade a document step by step from its own format; one without a format is of the first', () => {
    expect(pets.version).toBe(3);
    expect(pets.read({ name: 'A' }, 'pet/a')).toEqual({ title: 'A', tags: [] });
    expect(pets.read({ format: 1, name: 'B' }, 'pet/b')).toEqual({ format: 1, title: 'B', tags: [] });
    expect(pets.read({ format: 2, title: 'C' }, 'pet/c')).toEqual({ format: 2, title: 'C', tags: [] });
    expect(pets.decode(encode({ format: 3, title: 'D', tags: ['x'] }), 'pet/d')).toEqual({
      format: 3,
      title: 'D',
      tags: ['x'],
    });
  });

  it('write the format from the second on, and nothing while the first is current', () => {
    expect(pets.write({ title: 'A', tags: [] })).toEqual({ title: 'A', tags: [], format: 3 });
    const first = { limit: 1, label: 'x' };
    expect(settings.version).toBe(1);
    expect(settings.write(first)).toBe(first);
    // Format 2 of heads and entry documents came with the actors (created_by, deleted_by, last_updated_by); format 3
    // of heads (2 of the config) with destroy_version_after.
    expect(headFormat.version).toBe(3);
    expect(entryFormat.version).toBe(2);
    expect(configFormat.version).toBe(2);
  });

  it('refuse a format newer than they know, and a format field that is no format', () => {
    expect(() => pets.read({ format: 4, title: 'E', tags: [] }, 'pet/e')).toThrow(InternalError);
    expect(() => pets.read({ format: 4, title: 'E', tags: [] }, 'pet/e')).toThrow(
      '"pet/e" has format 4; this engine reads formats up to 3',
    );
    for (const format of [0, 1.5, '2', null]) {
      expect(() => pets.read({ format, title: 'F', tags: [] }, 'pet/f')).toThrow(
        new CorruptDocument('stored entry "pet/f" is corrupt: field format has the wrong shape'),
      );
    }
  });

  it('fill the defaults a document lacks, and answer one lacking none as it was stored', () => {
    expect(settings.read({ limit: 1 }, 'settings')).toEqual({ limit: 1, label: 'none' });
    const complete = { limit: 2, label: 'set', later: true };
    expect(settings.read(complete, 'settings')).toBe(complete);
  });

  it('name the key and the first field at fault, never a value', () => {
    expect(() => settings.read({ limit: 's3cr3t' }, 'settings')).toThrow(
      new CorruptDocument('stored entry "settings" is corrupt: field limit has the wrong shape'),
    );
    expect(() => settings.read([], 'settings')).toThrow(
      new CorruptDocument('stored entry "settings" is corrupt: the document itself has the wrong shape'),
    );
  });

  it('let a read of an entry document check only the data it answers', () => {
    expect(entryData({ version: 1, created: 'not checked', write: 'w', data: { a: 1 } }, 'e/1')).toEqual({ a: 1 });
    expect(entryData({ version: 1, created: 1, write: 'w' }, 'e/1')).toBeUndefined();
    expect(() => entryData({ version: 1, created: 1, write: 'w', data: [1] }, 'e/1')).toThrow(
      new CorruptDocument('stored entry "e/1" is corrupt: its data has the wrong shape'),
    );
  });
});

/** A head as the first releases stored it: no format field, none of the fields later formats added. */
const FIRST_HEAD = {
  created: 1,
  updated: 1,
  current_version: 0,
  oldest_version: 0,
  max_versions: 0,
  cas_required: false,
  delete_version_after: 0,
  custom_metadata: {},
  versions: [],
};

describe('destroy_version_after in stored documents', () => {
  it('heads of format 1 and 2 and configs of format 1 read as having none set', () => {
    for (const format of [undefined, 2])
      expect(headFormat.read({ ...FIRST_HEAD, format }, 'kv/metadata/old').destroy_version_after).toBe(0);
    const config = configFormat.read({ max_versions: 3, cas_required: false, delete_version_after: 0 }, 'kv/config');
    expect(config).toMatchObject({ max_versions: 3, destroy_version_after: 0 });
    expect(configFormat.write(config)).toMatchObject({ format: 2 });
  });
});

describe('the history of a head', () => {
  const head = (changes: unknown) => headFormat.read({ ...FIRST_HEAD, changes }, 'kv/metadata/k');

  it('is read with the head as a list, and each change checked where it becomes an event', () => {
    const corrupt = head([{ operation: 'write', version: 1, revision: 'two', time: 1 }]);
    expect(() => headHistory(corrupt, 'kv/metadata/k')).toThrow(
      new CorruptDocument('stored entry "kv/metadata/k" is corrupt: field changes.0.revision has the wrong shape'),
    );
    expect(() => head({ operation: 'write' })).toThrow(
      new CorruptDocument('stored entry "kv/metadata/k" is corrupt: field changes has the wrong shape'),
    );
  });

  it('takes an operation a later release added as it was recorded', () => {
    expect(headHistory(head([{ operation: 'rename', version: 1, revision: 2, time: 3 }]), 'kv/metadata/k')).toEqual([
      { operation: 'rename', version: 1, revision: 2, time: 3 },
    ]);
    expect(headHistory(head(undefined), 'kv/metadata/k')).toEqual([]);
  });
});

describe('heads of the first layout', () => {
  it('read and change like a head that never counted revisions nor kept entry documents', async () => {
    const env = setup();
    const blob = '0123456789abcdef0123456789abcdef';
    const head = {
      created: 1,
      updated: 1,
      current_version: 1,
      oldest_version: 0,
      max_versions: 0,
      cas_required: false,
      delete_version_after: 0,
      custom_metadata: {},
      versions: [{ version: 1, created: 1, blob }],
    };
    await env.storage.put('kv/metadata/old', encode(head));
    await env.storage.put(`kv/versions/01/${blob}`, encode({ a: 1 }));
    expect(dataOf(await env.R('old')).data).toEqual({ a: 1 });
    expect((await env.W('old', { a: 2 })).status).toBe(200);
    expect(dataOf(await env.R('old')).data).toEqual({ a: 2 });
    expect(dataOf(await env.MR('old')).versions).toHaveProperty('1');
    const stored = JSON.parse(new TextDecoder().decode(await env.storage.get('kv/metadata/old'))) as Record<
      string,
      unknown
    >;
    expect(stored).toMatchObject({ revision: 1, spilled: 0, garbage: [], retired: [] });
  });
});
