import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuthContext } from '../../../src/auth/context/auth-context.js';
import { documentFolder, storedDocument } from '../../../src/auth/context/stored-document.js';
import { InternalError } from '../../../src/lib/errors.js';
import { CorruptDocument, unchanged } from '../../../src/core/store/stored-json.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { testStorage } from '../../support/test-storage.js';
import { adminHarness } from '../admin-harness.js';

/** The definition every stored auth document is read and written through: format versions, upgrades, shapes. */

// A document kind in its third format: format 1 named the field `name`, format 2 renamed it `title`, format 3 added
// `tags`. Each step is written against the format it knew.
const pets = documentFolder({
  folder: 'pet/',
  shape: z.object({ title: z.string(), tags: z.array(z.string()) }),
  upgrades: [({ name, ...rest }) => ({ ...rest, title: name }), (older) => ({ ...older, tags: [] })],
});

const settings = storedDocument({
  key: 'config/settings',
  shape: z.object({ limit: z.number(), label: z.string() }),
  defaults: { limit: 10, label: 'none' },
});

function setup() {
  const storage = testStorage();
  const context = new AuthContext({ storage, cloud: new FakeCloud() });
  const put = (key: string, value: unknown) =>
    storage.put(`auth/${key}`, new TextEncoder().encode(JSON.stringify(value)));
  const stored = async (key: string) =>
    JSON.parse(new TextDecoder().decode(await storage.get(`auth/${key}`))) as unknown;
  return { context, put, stored };
}

describe('stored documents', () => {
  it('are written with the current format version, which a read does not show', async () => {
    const { context, stored } = setup();
    expect(pets.format.version).toBe(3);
    await context.update(pets.named('rex'), () => ({ title: 'Rex', tags: ['good'] }));
    expect(await stored('pet/rex')).toEqual({ title: 'Rex', tags: ['good'], version: 3 });
    expect(await context.read(pets.named('rex'))).toEqual({ title: 'Rex', tags: ['good'] });
  });

  it('are upgraded step by step from their own version; one without a version is in the first format', async () => {
    const { context, put } = setup();
    await put('pet/a', { name: 'A' });
    await put('pet/b', { version: 1, name: 'B' });
    await put('pet/c', { version: 2, title: 'C' });
    await put('pet/d', { version: 3, title: 'D', tags: ['x'] });
    expect(await context.read(pets.named('a'))).toEqual({ title: 'A', tags: [] });
    expect(await context.read(pets.named('b'))).toEqual({ title: 'B', tags: [] });
    expect(await context.read(pets.named('c'))).toEqual({ title: 'C', tags: [] });
    expect(await context.read(pets.named('d'))).toEqual({ title: 'D', tags: ['x'] });
  });

  it('are stored upgraded by the next write, and an update sees them upgraded', async () => {
    const { context, put, stored } = setup();
    await put('pet/a', { name: 'A' });
    let seen: unknown;
    await context.update(pets.named('a'), (current) => {
      seen = current;
      return unchanged;
    });
    expect(seen).toEqual({ title: 'A', tags: [] });
    expect(await stored('pet/a')).toEqual({ name: 'A' });
    const result = await context.update(pets.named('a'), (current) => current && { ...current, tags: ['new'] });
    expect(result).toEqual({ previous: { title: 'A', tags: [] }, next: { title: 'A', tags: ['new'] }, written: true });
    expect(await stored('pet/a')).toEqual({ title: 'A', tags: ['new'], version: 3 });
  });

  it('keep the fields a later release added to the current format', async () => {
    const { context, put, stored } = setup();
    await put('pet/a', { version: 3, title: 'A', tags: [], colour: 'brown' });
    await context.update(pets.named('a'), (current) => current && { ...current, title: 'B' });
    expect(await stored('pet/a')).toEqual({ version: 3, title: 'B', tags: [], colour: 'brown' });
  });

  it('of a version newer than the engine knows are refused rather than misread', async () => {
    const { context, put } = setup();
    await put('pet/a', { version: 4, title: 'A', tags: [], more: 1 });
    const refusal = context.read(pets.named('a'));
    await expect(refusal).rejects.toThrow(InternalError);
    await expect(refusal).rejects.toThrow('stored entry "auth/pet/a" has format version 4; this engine reads up to 3');
  });

  it.each([
    [{ version: 0, title: 'A', tags: [] }, 'field version'],
    [{ version: '3', title: 'A', tags: [] }, 'field version'],
    [{ version: 2.5, title: 'A', tags: [] }, 'field version'],
    [{ version: 3, title: 'secret-value', tags: 'x' }, 'field tags'],
    [['secret-value'], 'the document itself'],
    [null, 'the document itself'],
  ])('of the wrong shape (%j) are a CorruptDocument naming the field, never a value', async (value, field) => {
    const { context, put } = setup();
    await put('pet/a', value);
    const refusal = context.read(pets.named('a'));
    await expect(refusal).rejects.toThrow(CorruptDocument);
    await expect(refusal).rejects.toThrow(`stored entry "auth/pet/a" is corrupt: ${field} has the wrong shape`);
  });

  it('read a field they lack as its default, where the format has one', async () => {
    const { context, put } = setup();
    await put('config/settings', { limit: 3 });
    expect(await context.read(settings)).toEqual({ limit: 3, label: 'none' });
  });

  it('list by folder, without sub-folders', async () => {
    const { context, put } = setup();
    await put('pet/a', { name: 'A' });
    await put('pet/b/c', { name: 'C' });
    expect(await context.list(pets)).toEqual(['a']);
  });

  it('of every kind carry their version once written through the API', async () => {
    const h = adminHarness();
    await h.write('role/web', { auth_type: 'ec2', bound_ami_id: 'ami-1' });
    await h.write('config/client', { max_retries: 2 });
    await h.write('config/sts/111111111111', { sts_role: 'arn:aws:iam::111111111111:role/r' });
    await h.write('config/tidy/identity-accesslist', { safety_buffer: '1h' });
    await h.write('config/identity', { iam_alias: 'full_arn' });
    for (const key of [
      'role/web',
      'config/client',
      'config/sts/111111111111',
      'config/tidy/identity-accesslist',
      'config/identity',
    ]) {
      const document = JSON.parse(new TextDecoder().decode(await h.storage.get(`auth/${key}`))) as {
        version?: unknown;
      };
      expect(document.version, key).toBe(1);
    }
  });
});
