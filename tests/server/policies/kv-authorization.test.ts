// KV listings, copies, moves and folder deletes over HTTP with tokens and real ACL policies: a token is never answered
// a name, metadata or data its policies keep from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type RawRequest, type Started } from '../harness.js';
import { tokenWithPolicy } from '../policy-token.js';

let started: Started;
const ROOT = 'sr.kv-authorization-root';
const send = (options: RawRequest) => request(started.url, options);
const asRoot = (options: RawRequest) => send({ token: ROOT, ...options });

const tokenWith = (name: string, policy: string) => tokenWithPolicy(asRoot, name, policy);

async function write(path: string, data: Record<string, unknown>): Promise<void> {
  expect((await asRoot({ method: 'POST', path: `/v1/secret/data/${path}`, body: { data } })).status).toBe(200);
}

beforeAll(async () => {
  started = await startServer({ rootToken: ROOT });
  for (const path of ['app/db', 'app/web', 'hr/alice', 'hr/sub/bob', 'top']) await write(path, { secret: path });
  expect(
    (
      await asRoot({
        method: 'POST',
        path: '/v1/secret/metadata/hr/alice',
        body: { custom_metadata: { salary: 'high' } },
      })
    ).status,
  ).toBe(204);
}, 120_000);

afterAll(() => started?.stop());

describe('finding 5: GET metadata/?scan=true honours denies below the folder', () => {
  it('answers no name of a denied sub-tree, to GET ?scan=true nor to a LIST of it', async () => {
    const token = await tokenWith(
      'lister',
      'path "secret/metadata/*" { capabilities = ["list"] }\npath "secret/metadata/hr/*" { capabilities = ["deny"] }',
    );
    const viaGet = await send({ path: '/v1/secret/metadata/?scan=true', token });
    expect(viaGet.status).toBe(200);
    expect(viaGet.json.data.keys).toEqual(['app/db', 'app/web', 'top']);
    const viaList = await send({ method: 'LIST', path: '/v1/secret/metadata/hr/', token });
    expect(viaList.text).not.toContain('alice');
    // The root token sees everything.
    expect((await asRoot({ path: '/v1/secret/metadata/?scan=true' })).json.data.keys).toEqual([
      'app/db',
      'app/web',
      'hr/alice',
      'hr/sub/bob',
      'top',
    ]);
  });

  it('detailed-metadata/?scan=true answers neither the names nor the metadata of the denied sub-tree', async () => {
    const token = await tokenWith(
      'detailed-lister',
      'path "secret/*" { capabilities = ["list", "read"] }\npath "secret/detailed-metadata/hr/*" { capabilities = ["deny"] }',
    );
    const scanned = await send({ path: '/v1/secret/detailed-metadata/?scan=true', token });
    expect(scanned.json.data.keys).toEqual(['app/db', 'app/web', 'top']);
    expect(scanned.text).not.toContain('salary');
  });
});

describe('which names a listing shows: all of a listed folder, unless a deny decides them', () => {
  it('a policy on the exact folder path lists every name in it', async () => {
    const token = await tokenWith('exact-folder', 'path "secret/metadata/" { capabilities = ["list"] }');
    const listed = await send({ method: 'LIST', path: '/v1/secret/metadata/', token });
    expect(listed.status).toBe(200);
    expect(listed.json.data.keys).toEqual(['app/', 'hr/', 'top']);
    expect((await send({ method: 'LIST', path: '/v1/secret/metadata/app/', token })).status).toBe(403);
  });

  it('a deny on a single key or on a sub-folder hides that name only', async () => {
    const policy = [
      'path "secret/metadata/" { capabilities = ["list"] }',
      'path "secret/metadata/app/" { capabilities = ["list"] }',
      'path "secret/metadata/app/web" { capabilities = ["deny"] }',
      'path "secret/metadata/hr/*" { capabilities = ["deny"] }',
    ].join('\n');
    const token = await tokenWith('single-denies', policy);
    expect((await send({ method: 'LIST', path: '/v1/secret/metadata/', token })).json.data.keys).toEqual([
      'app/',
      'top',
    ]);
    expect((await send({ method: 'LIST', path: '/v1/secret/metadata/app/', token })).json.data.keys).toEqual(['db']);
  });

  it('a SCAN shows deep names unless a deny decides them; a more specific grant under a deny shows its own', async () => {
    const policy =
      'path "secret/metadata/" { capabilities = ["scan"] }\npath "secret/metadata/hr/*" { capabilities = ["deny"] }\npath "secret/metadata/hr/sub/*" { capabilities = ["read"] }';
    const token = await tokenWith('deep-scan', policy);
    const scanned = await send({ path: '/v1/secret/metadata/?scan=true', token });
    expect(scanned.json.data.keys).toEqual(['app/db', 'app/web', 'hr/sub/bob', 'top']);
    expect(scanned.text).not.toContain('alice');
  });
});

describe('finding 18: detailed-metadata answers only metadata the token may read', () => {
  const policy =
    'path "secret/*" { capabilities = ["list"] }\npath "secret/metadata/hr/*" { capabilities = ["deny"] }\npath "secret/data/hr/*" { capabilities = ["deny"] }';

  it('LIST detailed-metadata/hr/ answers no custom_metadata nor version history of a denied key', async () => {
    const token = await tokenWith('hr-denied', policy);
    const listed = await send({ method: 'LIST', path: '/v1/secret/detailed-metadata/hr/', token });
    expect(listed.text).not.toContain('salary');
    expect(listed.text).not.toContain('alice');
    expect(listed.json.data).toEqual({ keys: ['sub/'], key_info: { 'sub/': {} } });
  });

  it('keys whose metadata the token may read come with it; readable_only also needs read on data/', async () => {
    const token = await tokenWith(
      'app-meta',
      `${policy}\npath "secret/metadata/app/*" { capabilities = ["read"] }\npath "secret/data/app/web" { capabilities = ["read"] }`,
    );
    const listed = await send({ method: 'LIST', path: '/v1/secret/detailed-metadata/app/', token });
    expect(listed.json.data.keys).toEqual(['db', 'web']);
    expect(listed.json.data.key_info.db.current_version).toBe(1);
    const readable = await send({
      method: 'LIST',
      path: '/v1/secret/detailed-metadata/app/?readable_only=true',
      token,
    });
    expect(readable.json.data.keys).toEqual(['web']);
  });
});

describe('findings 6 and 21: copy and move hand over nothing the caller could not read', () => {
  const base = (from: string, to: string) =>
    [
      `path "secret/copy/${from}" { capabilities = ["update"] }`,
      `path "secret/move/${from}" { capabilities = ["update"] }`,
      `path "secret/data/${from}" { capabilities = ["read"] }`,
      `path "secret/metadata/${from}" { capabilities = ["delete"] }`,
      `path "secret/data/${to}" { capabilities = ["create", "read"] }`,
      `path "secret/undelete/${to}" { capabilities = ["update"] }`,
      `path "secret/metadata/${to}" { capabilities = ["read"] }`,
    ].join('\n');

  async function source(path: string): Promise<void> {
    expect(
      (
        await asRoot({
          method: 'POST',
          path: `/v1/secret/metadata/${path}`,
          body: { max_versions: 7, custom_metadata: { owner: 'payroll' } },
        })
      ).status,
    ).toBe(204);
    await write(path, { v: 1 });
    await write(path, { v: 2 });
    expect((await asRoot({ method: 'POST', path: `/v1/secret/delete/${path}`, body: { versions: [1] } })).status).toBe(
      204,
    );
  }

  it.each(['copy', 'move'])(
    '%s without undelete on the source: the deleted version arrives destroyed, metadata stays behind',
    async (verb) => {
      await source(`${verb}-src`);
      const token = await tokenWith(`${verb}-plain`, base(`${verb}-src`, `${verb}-dst`));
      expect(
        (await send({ method: 'POST', path: `/v1/secret/${verb}/${verb}-src`, token, body: { to: `${verb}-dst` } }))
          .status,
      ).toBe(204);
      expect(
        (await send({ method: 'POST', path: `/v1/secret/undelete/${verb}-dst`, token, body: { versions: [1] } }))
          .status,
      ).toBe(204);
      const first = await send({ path: `/v1/secret/data/${verb}-dst?version=1`, token });
      expect(first.status).toBe(404);
      expect(first.json.data).toMatchObject({ data: null, metadata: { destroyed: true } });
      expect((await send({ path: `/v1/secret/data/${verb}-dst`, token })).json.data.data).toEqual({ v: 2 });
      const metadata = await send({ path: `/v1/secret/metadata/${verb}-dst`, token });
      expect(metadata.json.data).toMatchObject({ custom_metadata: null, max_versions: 0 });
    },
  );

  it.each(['copy', 'move'])(
    '%s with undelete on the source and rights on both metadata paths carries all',
    async (verb) => {
      await source(`${verb}-full`);
      const extra = `\npath "secret/undelete/${verb}-full" { capabilities = ["update"] }\npath "secret/metadata/${verb}-full" { capabilities = ["read", "delete"] }\npath "secret/metadata/${verb}-full-dst" { capabilities = ["create", "read"] }`;
      const token = await tokenWith(`${verb}-full`, base(`${verb}-full`, `${verb}-full-dst`) + extra);
      expect(
        (
          await send({
            method: 'POST',
            path: `/v1/secret/${verb}/${verb}-full`,
            token,
            body: { to: `${verb}-full-dst` },
          })
        ).status,
      ).toBe(204);
      expect(
        (await send({ method: 'POST', path: `/v1/secret/undelete/${verb}-full-dst`, token, body: { versions: [1] } }))
          .status,
      ).toBe(204);
      expect((await send({ path: `/v1/secret/data/${verb}-full-dst?version=1`, token })).json.data.data).toEqual({
        v: 1,
      });
      const metadata = await send({ path: `/v1/secret/metadata/${verb}-full-dst`, token });
      expect(metadata.json.data).toMatchObject({ custom_metadata: { owner: 'payroll' }, max_versions: 7 });
    },
  );
});

describe('finding 22: a recursive folder delete needs list on the folder', () => {
  it('a token with only delete on secret/metadata/* is refused and nothing goes', async () => {
    for (const path of ['gone/a', 'gone/b/c']) await write(path, { path });
    const deleter = await tokenWith('deleter', 'path "secret/metadata/*" { capabilities = ["delete"] }');
    expect(
      (await send({ method: 'DELETE', path: '/v1/secret/metadata/gone/?recursive=true', token: deleter })).status,
    ).toBe(403);
    expect((await asRoot({ path: '/v1/secret/metadata/gone/?scan=true' })).json.data.keys).toEqual(['a', 'b/c']);
    const lister = await tokenWith('deleter-lister', 'path "secret/metadata/*" { capabilities = ["delete", "list"] }');
    expect(
      (await send({ method: 'DELETE', path: '/v1/secret/metadata/gone/?recursive=true', token: lister })).status,
    ).toBe(204);
    expect((await asRoot({ path: '/v1/secret/metadata/gone/?scan=true' })).status).toBe(404);
  });
});
