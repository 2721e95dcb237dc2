import { describe, expect, it } from 'vitest';
import { Acl } from '../../src/acl/acl.js';
import { parsePolicy } from '../../src/acl/policy.js';
import type { CapabilityCheck, EngineRequest } from '../../src/core/framework/request.js';
import { dataOf, expectPlain404, setup } from './helpers.js';

const POLICY = `
path "secret/metadata/*"          { capabilities = ["list"] }
path "secret/metadata/team/hidden/" { capabilities = ["deny"] }
path "secret/data/team/app*"      { capabilities = ["read"] }
path "secret/data/team/db"        { capabilities = ["read"] }
path "secret/data/team/+/inner"   { capabilities = ["read"] }
`;
const authorizer = () => new Acl([{ name: 'team', rules: parsePolicy(POLICY) }]).authorizer('secret');

async function seeded(options: { filterListings?: boolean } = {}) {
  const env = setup(options);
  for (const path of [
    'team/app',
    'team/app-2',
    'team/db',
    'team/other',
    'team/hidden/x',
    'team/sub/inner',
    'team/sub/outer',
    'team/zz',
  ]) {
    await env.W(path, { a: 1 });
  }
  return env;
}

const listed = async (
  env: Awaited<ReturnType<typeof seeded>>,
  request: Omit<EngineRequest, 'path'> & { path?: string },
) => {
  const response = await env.handle({ path: 'metadata/team/', ...request });
  return response.status === 404 ? [] : (dataOf(response).keys as string[]);
};

describe('listings narrowed to what the caller may read', () => {
  it('readable_only=true keeps keys the caller may read and folders it may list', async () => {
    const env = await seeded();
    const authorize = authorizer();
    // The denied sub-folder is left out of every listing: each name must pass list on its own path.
    expect(await listed(env, { method: 'LIST', authorize })).toEqual(['app', 'app-2', 'db', 'other', 'sub/', 'zz']);
    expect(await listed(env, { method: 'LIST', authorize, query: { readable_only: 'true' } })).toEqual([
      'app',
      'app-2',
      'db',
      'sub/',
    ]);
    expect(await listed(env, { method: 'SCAN', authorize, query: { readable_only: 'true' } })).toEqual([
      'app',
      'app-2',
      'db',
      'sub/inner',
    ]);
  });

  it('the engine option narrows every listing; a request may opt out with readable_only=false', async () => {
    const env = await seeded({ filterListings: true });
    const authorize = authorizer();
    expect(await listed(env, { method: 'LIST', authorize })).toEqual(['app', 'app-2', 'db', 'sub/']);
    expect(await listed(env, { method: 'LIST', authorize, query: { readable_only: 'false' } })).toEqual([
      'app',
      'app-2',
      'db',
      'other',
      'sub/',
      'zz',
    ]);
    // Without an authorize callback there is nobody to ask: everything is visible, as for every other request.
    expect(await listed(env, { method: 'LIST' })).toHaveLength(7);
  });

  it('pages stay full: limit counts only names that survive the filter, and after resumes from the last one', async () => {
    const env = await seeded({ filterListings: true });
    const authorize = authorizer();
    expect(await listed(env, { method: 'LIST', authorize, query: { limit: '2' } })).toEqual(['app', 'app-2']);
    expect(await listed(env, { method: 'LIST', authorize, query: { limit: '2', after: 'app-2' } })).toEqual([
      'db',
      'sub/',
    ]);
    expect(await listed(env, { method: 'LIST', authorize, query: { limit: '2', after: 'sub/' } })).toEqual([]);
  });

  it('an Acl authorizer answers each page in one bulk call; a plain callback is asked once per name, same result', async () => {
    const env = await seeded({ filterListings: true });
    const acl = authorizer();
    const single: CapabilityCheck[] = [];
    let bulk = 0;
    const counted = Object.assign((check: CapabilityCheck) => (single.push(check), acl(check)), {
      many: (checks: readonly CapabilityCheck[]) => (bulk++, acl.many(checks)),
    });
    const viaBulk = await listed(env, { method: 'LIST', authorize: counted });
    expect(bulk).toBe(1);
    expect(single).toEqual([{ capability: 'list', path: 'metadata/team/' }]);
    const plain: CapabilityCheck[] = [];
    const viaPlain = await listed(env, { method: 'LIST', authorize: async (check) => (plain.push(check), acl(check)) });
    expect(viaPlain).toEqual(viaBulk);
    // The folder, then per name list on its own path, and for each of the 5 keys read on its data. A sub-folder's
    // readable check (list on its metadata/ path) is that listing check, asked once.
    expect(plain).toHaveLength(1 + 7 + 5);
    expect(plain).toContainEqual({ capability: 'read', path: 'data/team/app' });
    expect(plain.filter((check) => check.path === 'metadata/team/sub/')).toEqual([
      { capability: 'list', path: 'metadata/team/sub/' },
    ]);
  });

  it('a filter that leaves nothing answers 404 like an empty folder', async () => {
    const env = await seeded({ filterListings: true });
    const response = await env.handle({
      method: 'LIST',
      path: 'metadata/team/hidden/',
      authorize: (check) => check.capability === 'list',
    });
    expectPlain404(response);
  });
});

describe('LIST and SCAN detailed-metadata/<folder>/', () => {
  it('answers keys with key_info: each key metadata exactly as GET metadata/ shows it, folders as {}', async () => {
    const env = await seeded();
    await env.MD('team/app', { custom_metadata: { owner: 'ops' }, max_versions: 3 });
    const response = await env.handle({ method: 'LIST', path: 'detailed-metadata/team/' });
    expect(response.status).toBe(200);
    const data = dataOf(response);
    expect(Object.keys(data).sort()).toEqual(['key_info', 'keys']);
    expect(data.keys).toEqual(['app', 'app-2', 'db', 'hidden/', 'other', 'sub/', 'zz']);
    expect(Object.keys(data.key_info)).toEqual(data.keys);
    expect(data.key_info['hidden/']).toEqual({});
    for (const name of ['app', 'db', 'zz']) expect(data.key_info[name]).toEqual(dataOf(await env.MR(`team/${name}`)));
    expect(data.key_info.app.custom_metadata).toEqual({ owner: 'ops' });
  });

  it('SCAN (and GET ?scan=true) recurses; after/limit page it; an empty folder is 404', async () => {
    const env = await seeded();
    const scanned = dataOf(
      await env.handle({
        method: 'GET',
        path: 'detailed-metadata/team/',
        query: { scan: 'true', after: 'other', limit: '2' },
      }),
    );
    expect(scanned.keys).toEqual(['sub/inner', 'sub/outer']);
    expect(scanned.key_info['sub/inner']).toEqual(dataOf(await env.MR('team/sub/inner')));
    expectPlain404(await env.handle({ method: 'LIST', path: 'detailed-metadata/none/' }));
  });

  it('needs list (LIST) or scan (SCAN) on the detailed-metadata path, and honours readable_only', async () => {
    const env = await seeded();
    const checks: CapabilityCheck[] = [];
    const acl = authorizer();
    // A detailed listing also asks read on each key's metadata/ path.
    const authorize = (check: CapabilityCheck) => (
      checks.push(check),
      check.path.startsWith('detailed-metadata/') ||
        (check.capability === 'read' && check.path.startsWith('metadata/')) ||
        acl(check)
    );
    const data = dataOf(
      await env.handle({ method: 'SCAN', path: 'detailed-metadata/team', query: { readable_only: 'true' }, authorize }),
    );
    expect(checks[0]).toEqual({ capability: 'scan', path: 'detailed-metadata/team/' });
    expect(data.keys).toEqual(['app', 'app-2', 'db', 'sub/inner']);
  });

  it('the typed methods answer the same', async () => {
    const env = await seeded();
    expect(await env.kv.scan('team', { limit: 3 })).toEqual(['app', 'app-2', 'db']);
    const detailed = await env.kv.listDetailed('team/sub');
    expect(detailed.keys).toEqual(['inner', 'outer']);
    expect(detailed.key_info.inner).toEqual(await env.kv.readMetadata('team/sub/inner'));
  });
});
