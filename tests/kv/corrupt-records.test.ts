import { describe, expect, it } from 'vitest';
import { CorruptDocument } from '../../src/core/store/stored-json.js';
import { dataOf, expectError, setup } from './helpers.js';

/** Stored documents of the wrong shape: a clear 500 naming the key, and every key repairable (issue 18.8). */

const encode = (text: string) => new TextEncoder().encode(text);

function engine() {
  const faults: unknown[] = [];
  const env = setup({ onInternalError: (error) => faults.push(error) });
  return { ...env, faults, put: (key: string, text: string) => env.storage.put(key, encode(text)) };
}

describe('KV records of the wrong shape', () => {
  it.each([
    ['{}', '{}', 'field created'],
    ['[]', '[]', 'the document itself'],
    ['null', 'null', 'the document itself'],
    [
      'a field of the wrong type',
      '{"created":1,"updated":1,"current_version":"3","oldest_version":0,"max_versions":0,"cas_required":false,"delete_version_after":0,"custom_metadata":{},"versions":[]}',
      'field current_version',
    ],
  ])(
    'a key record that is %s reads as a 500 naming the key, and DELETE metadata/ repairs it',
    async (_name, text, field) => {
      const env = engine();
      await env.put('kv/metadata/app', text);
      for (const response of [
        await env.R('app'),
        await env.MR('app'),
        await env.W('app', { a: 1 }),
        await env.SUB('app'),
      ]) {
        expectError(response, 500, `stored entry "kv/metadata/app" is corrupt: ${field} has the wrong shape`);
      }
      expect(env.faults.every((fault) => fault instanceof CorruptDocument)).toBe(true);
      expect((await env.handle({ method: 'DELETE', path: 'metadata/app' })).status).toBe(204);
      expect((await env.R('app')).status).toBe(404);
      expect((await env.W('app', { a: 1 })).status).toBe(200);
      expect(dataOf(await env.R('app')).data).toEqual({ a: 1 });
    },
  );

  it('a version whose data is not an object is a 500 naming its document; the key can still be deleted', async () => {
    const env = engine();
    await env.W('app', { a: 1 });
    const [blob] = [...(await env.storage.list('kv/versions/'))];
    const [id] = await env.storage.list(`kv/versions/${blob}`);
    await env.put(`kv/versions/${blob}${id}`, '["not", "an", "object"]');
    expectError(await env.R('app'), 500, `stored entry "kv/versions/${blob}${id}" is corrupt`);
    expect((await env.handle({ method: 'DELETE', path: 'metadata/app' })).status).toBe(204);
    expect((await env.MR('app')).status).toBe(404);
  });

  it('a config with cas_required "yes" is a 500 naming it rather than a silent refusal of every write, and a config write repairs it', async () => {
    const env = engine();
    await env.put('kv/config', '{"max_versions":0,"cas_required":"yes","delete_version_after":0}');
    expectError(
      await env.W('app', { a: 1 }),
      500,
      'stored entry "kv/config" is corrupt: field cas_required has the wrong shape',
    );
    expectError(await env.handle({ method: 'GET', path: 'config' }), 500, '"kv/config"');
    expect((await env.config({ cas_required: false })).status).toBe(204);
    expect(dataOf(await env.handle({ method: 'GET', path: 'config' }))).toMatchObject({
      cas_required: false,
      delete_version_after: '0s',
      max_versions: 0,
    });
    expect((await env.W('app', { a: 1 })).status).toBe(200);
  });

  it('never shows the stored value in the error', async () => {
    const env = engine();
    await env.put('kv/metadata/app', '{"created":"s3cr3t-value"}');
    const response = await env.R('app');
    expect(response.status).toBe(500);
    expect(JSON.stringify(response)).not.toContain('s3cr3t');
    expect(String((env.faults[0] as Error).message)).not.toContain('s3cr3t');
  });
});
