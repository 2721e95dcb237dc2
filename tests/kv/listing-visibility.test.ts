import { describe, expect, it } from 'vitest';
import { Acl } from '../../src/acl/acl.js';
import { parsePolicy } from '../../src/acl/policy.js';
import type { CapabilityCheck, EngineRequest } from '../../src/core/framework/request.js';
import { dataOf, expectPlain404, setup } from './helpers.js';

/**
 * Every name a LIST or SCAN answers passes the same token's check for that name: the listing's capability (`list` or
 * `scan`) on the name's own path, marked `listing`, which the Acl answers with `shows`: a name is hidden where a deny
 * decides it, so a deny below the listed folder hides what lies under it (filtered, not a 403), and otherwise shown,
 * as in Vault. A detailed listing's keys also need `read` on `metadata/<key>`, since it answers their metadata.
 */

const KEYS = ['app/db', 'app/web', 'hr/alice', 'hr/sub/bob', 'top', 'zeta/x'];

async function seeded(options: { filterListings?: boolean } = {}) {
  const env = setup(options);
  for (const path of KEYS) expect((await env.W(path, { secret: path })).status).toBe(200);
  expect((await env.MD('hr/alice', { custom_metadata: { salary: 'high' } })).status).toBe(204);
  return env;
}

const aclOf = (...policies: string[]) =>
  new Acl(policies.map((text, index) => ({ name: `p${index}`, rules: parsePolicy(text) })));

type Env = Awaited<ReturnType<typeof seeded>>;
async function keys(env: Env, request: EngineRequest): Promise<string[]> {
  const response = await env.handle(request);
  if (response.status === 404) return [];
  expect(response.status).toBe(200);
  return dataOf(response).keys as string[];
}

/** list on the whole metadata tree (and so scan, in a policy that never names it), deny below hr/. */
const LISTER = `
path "secret/metadata/*" { capabilities = ["list"] }
path "secret/metadata/hr/*" { capabilities = ["deny"] }
`;

describe('finding 5: SCAN implied by LIST honours denies below the folder', () => {
  it('SCAN and GET ?scan=true leave out every key of a denied sub-tree', async () => {
    const env = await seeded();
    const authorize = aclOf(LISTER).authorizer('secret/');
    expect(await keys(env, { method: 'SCAN', path: 'metadata/', authorize })).toEqual([
      'app/db',
      'app/web',
      'top',
      'zeta/x',
    ]);
    expect(await keys(env, { method: 'GET', path: 'metadata/', query: { scan: 'true' }, authorize })).toEqual([
      'app/db',
      'app/web',
      'top',
      'zeta/x',
    ]);
    // Without a callback there is nobody to ask: everything, as for every other request.
    expect(await keys(env, { method: 'SCAN', path: 'metadata/' })).toEqual(KEYS);
  });

  it('a SCAN of the denied folder itself answers no name', async () => {
    const env = await seeded();
    const authorize = aclOf(LISTER).authorizer('secret/');
    const response = await env.handle({ method: 'SCAN', path: 'metadata/hr/', authorize });
    // Whatever the ACL says of the folder itself (403), no name below it is answered.
    expect(response.status === 403 || response.status === 404).toBe(true);
    expect(JSON.stringify(response.body)).not.toContain('alice');
  });

  it('detailed-metadata SCAN leaves out the denied keys and their metadata', async () => {
    const env = await seeded();
    const authorize = aclOf(
      'path "secret/*" { capabilities = ["list", "read"] }\npath "secret/detailed-metadata/hr/*" { capabilities = ["deny"] }',
    ).authorizer('secret/');
    const response = await env.handle({
      method: 'GET',
      path: 'detailed-metadata/',
      query: { scan: 'true' },
      authorize,
    });
    const data = dataOf(response);
    expect(data.keys).toEqual(['app/db', 'app/web', 'top', 'zeta/x']);
    expect(Object.keys(data.key_info)).toEqual(data.keys);
    expect(JSON.stringify(response.body)).not.toContain('salary');
  });

  it('a LIST leaves out a sub-folder or key the token is denied, and keeps the rest', async () => {
    const env = await seeded();
    const authorize = aclOf(
      'path "secret/metadata/*" { capabilities = ["list"] }\npath "secret/metadata/hr/" { capabilities = ["deny"] }\npath "secret/metadata/top" { capabilities = ["deny"] }',
    ).authorizer('secret/');
    expect(await keys(env, { method: 'LIST', path: 'metadata/', authorize })).toEqual(['app/', 'zeta/']);
  });

  it('asks the listing capability, marked listing, on each name, in one bulk call per page when the callback has many', async () => {
    const env = await seeded();
    const acl = aclOf(LISTER).authorizer('secret/');
    const single: CapabilityCheck[] = [];
    const bulk: CapabilityCheck[][] = [];
    const counted = Object.assign((check: CapabilityCheck) => (single.push(check), acl(check)), {
      many: (checks: readonly CapabilityCheck[]) => (bulk.push([...checks]), acl.many(checks)),
    });
    expect(await keys(env, { method: 'SCAN', path: 'metadata/', authorize: counted })).toEqual([
      'app/db',
      'app/web',
      'top',
      'zeta/x',
    ]);
    expect(single).toEqual([{ capability: 'scan', path: 'metadata/' }]);
    expect(bulk).toEqual([KEYS.map((name) => ({ capability: 'scan', path: `metadata/${name}`, listing: true }))]);
    // A plain callback is asked once per name, with the same result.
    const plain: CapabilityCheck[] = [];
    expect(
      await keys(env, { method: 'SCAN', path: 'metadata/', authorize: (check) => (plain.push(check), acl(check)) }),
    ).toEqual(['app/db', 'app/web', 'top', 'zeta/x']);
    expect(plain).toHaveLength(1 + KEYS.length);
  });

  it('pages stay full: limit counts the names that survive, after resumes past hidden ones', async () => {
    const env = await seeded();
    const authorize = aclOf(LISTER).authorizer('secret/');
    expect(await keys(env, { method: 'SCAN', path: 'metadata/', query: { limit: '3' }, authorize })).toEqual([
      'app/db',
      'app/web',
      'top',
    ]);
    expect(
      await keys(env, { method: 'SCAN', path: 'metadata/', query: { limit: '3', after: 'app/web' }, authorize }),
    ).toEqual(['top', 'zeta/x']);
  });

  it('only true grants a name: a callback answering "true", 1 or an object hides it', async () => {
    const env = await seeded();
    for (const answer of ['true', 1, {}]) {
      const authorize = ((check: CapabilityCheck) =>
        check.path === 'metadata/' ? true : answer) as EngineRequest['authorize'];
      expectPlain404(await env.handle({ method: 'SCAN', path: 'metadata/', authorize }));
      const many = Object.assign(() => true, {
        many: (checks: readonly CapabilityCheck[]) => checks.map(() => answer),
      });
      expectPlain404(await env.handle({ method: 'SCAN', path: 'metadata/', authorize: many }));
    }
  });
});

/** list on everything, deny on hr/ under both metadata/ and data/: detailed-metadata/ itself is not denied. */
const BROAD = `
path "secret/*" { capabilities = ["list"] }
path "secret/metadata/hr/*" { capabilities = ["deny"] }
path "secret/data/hr/*" { capabilities = ["deny"] }
`;

describe('finding 18: a detailed listing answers only metadata the token may read', () => {
  it('LIST detailed-metadata/hr/ answers no key whose metadata/ path is denied', async () => {
    const env = await seeded();
    const authorize = aclOf(BROAD).authorizer('secret/');
    const response = await env.handle({ method: 'LIST', path: 'detailed-metadata/hr/', authorize });
    expect(JSON.stringify(response.body)).not.toContain('salary');
    // The sub-folder name stays (it passes list on detailed-metadata/hr/sub/); no key's metadata does.
    expect(dataOf(response)).toEqual({ keys: ['sub/'], key_info: { 'sub/': {} } });
  });

  it('keys whose metadata the token may read are answered with it', async () => {
    const env = await seeded();
    const authorize = aclOf(BROAD, 'path "secret/metadata/app/db" { capabilities = ["read"] }').authorizer('secret/');
    const data = dataOf(await env.handle({ method: 'LIST', path: 'detailed-metadata/app/', authorize }));
    expect(data.keys).toEqual(['db']);
    expect(data.key_info.db).toEqual(dataOf(await env.MR('app/db')));
    const scanned = dataOf(await env.handle({ method: 'SCAN', path: 'detailed-metadata/', authorize }));
    expect(scanned.keys).toEqual(['app/db']);
  });

  it('readable_only on a detailed listing tests read on metadata/<key> as well as on data/<key>', async () => {
    const env = await seeded();
    const readsData = aclOf(
      'path "secret/*" { capabilities = ["list"] }\npath "secret/data/*" { capabilities = ["read"] }',
    ).authorizer('secret/');
    expectPlain404(
      await env.handle({
        method: 'LIST',
        path: 'detailed-metadata/app/',
        query: { readable_only: 'true' },
        authorize: readsData,
      }),
    );
    const readsBoth = aclOf(
      'path "secret/*" { capabilities = ["list"] }\npath "secret/data/*" { capabilities = ["read"] }\npath "secret/metadata/app/web" { capabilities = ["read"] }',
    ).authorizer('secret/');
    expect(
      dataOf(
        await env.handle({
          method: 'LIST',
          path: 'detailed-metadata/app/',
          query: { readable_only: 'true' },
          authorize: readsBoth,
        }),
      ).keys,
    ).toEqual(['web']);
  });

  it('the engine option filterListings narrows detailed listings the same way', async () => {
    const env = await seeded({ filterListings: true });
    // Every key's data is readable; only app/web's metadata is.
    const authorize = aclOf(
      'path "secret/*" { capabilities = ["list"] }\npath "secret/data/*" { capabilities = ["read"] }\npath "secret/metadata/app/web" { capabilities = ["read"] }',
    ).authorizer('secret/');
    expect(dataOf(await env.handle({ method: 'SCAN', path: 'detailed-metadata/', authorize })).keys).toEqual([
      'app/web',
    ]);
  });
});

describe('which names a listing shows: every name of a listed folder, unless a deny decides it', () => {
  const listing = async (policy: string, method: 'LIST' | 'SCAN', path: string, query: Record<string, string> = {}) =>
    keys(await seeded(), { method, path, query, authorize: aclOf(policy).authorizer('secret/') });

  it('a policy on the exact folder path lists all of its names (a Vault tutorial policy)', async () => {
    const exact = 'path "secret/metadata/" { capabilities = ["list"] }';
    expect(await listing(exact, 'LIST', 'metadata/')).toEqual(['app/', 'hr/', 'top', 'zeta/']);
    // The exact rule grants no folder below it.
    const below = await (
      await seeded()
    ).handle({ method: 'LIST', path: 'metadata/app/', authorize: aclOf(exact).authorizer('secret/') });
    expect(below.status).toBe(403);
    // With readable_only a name must still be readable (data/ for a key, listable for a sub-folder): none is.
    expect(await listing(exact, 'LIST', 'metadata/', { readable_only: 'true' })).toEqual([]);
  });

  it('a "+" rule granting list, beside a "*" rule granting read, lists the keys in each folder', async () => {
    const policy =
      'path "secret/metadata/+" { capabilities = ["list"] }\npath "secret/metadata/*" { capabilities = ["read"] }';
    expect(await listing(policy, 'LIST', 'metadata/app/')).toEqual(['db', 'web']);
    expect(await listing(policy, 'LIST', 'metadata/hr/')).toEqual(['alice', 'sub/']);
  });

  it('a deny on a sub-folder hides it, with either form of its path', async () => {
    const root = 'path "secret/metadata/" { capabilities = ["list"] }';
    for (const deny of ['secret/metadata/hr/*', 'secret/metadata/hr/', 'secret/metadata/hr', 'secret/metadata/h*']) {
      expect([deny, await listing(`${root}\npath "${deny}" { capabilities = ["deny"] }`, 'LIST', 'metadata/')]).toEqual(
        [deny, ['app/', 'top', 'zeta/']],
      );
    }
    // An exact rule on the folder's name that neither grants list nor denies leaves the deny below it in charge.
    const beside = `${root}\npath "secret/metadata/hr" { capabilities = ["read"] }\npath "secret/metadata/hr/*" { capabilities = ["deny"] }`;
    expect(await listing(beside, 'LIST', 'metadata/')).toEqual(['app/', 'top', 'zeta/']);
    // A segment rule: "+/sub" matches the form "hr/sub" of the sub-folder "sub/" of hr/.
    const segment =
      'path "secret/metadata/hr/" { capabilities = ["list"] }\npath "secret/metadata/+/sub" { capabilities = ["deny"] }';
    expect(await listing(segment, 'LIST', 'metadata/hr/')).toEqual(['alice']);
  });

  it('a deny on a single key hides that key only', async () => {
    const policy =
      'path "secret/metadata/app/" { capabilities = ["list"] }\npath "secret/metadata/app/web" { capabilities = ["deny"] }';
    expect(await listing(policy, 'LIST', 'metadata/app/')).toEqual(['db']);
    const detailed =
      'path "secret/detailed-metadata/app/" { capabilities = ["list"] }\npath "secret/metadata/app/*" { capabilities = ["read"] }\npath "secret/detailed-metadata/app/web" { capabilities = ["deny"] }';
    expect(await listing(detailed, 'LIST', 'detailed-metadata/app/')).toEqual(['db']);
  });

  it('a more specific grant under a deny shows what it grants, in a LIST and in a SCAN', async () => {
    const policy = `
      path "secret/metadata/*"        { capabilities = ["list"] }
      path "secret/metadata/hr/*"     { capabilities = ["deny"] }
      path "secret/metadata/hr/sub/*" { capabilities = ["list"] }
    `;
    expect(await listing(policy, 'LIST', 'metadata/hr/sub/')).toEqual(['bob']);
    expect(await listing(policy, 'SCAN', 'metadata/')).toEqual(['app/db', 'app/web', 'hr/sub/bob', 'top', 'zeta/x']);
  });

  it('SCAN shows deep names unless a deny decides them; an exact deny on a folder stops only its listing', async () => {
    const scanner = 'path "secret/metadata/" { capabilities = ["scan"] }';
    expect(await listing(scanner, 'SCAN', 'metadata/')).toEqual(KEYS);
    expect(
      await listing(`${scanner}\npath "secret/metadata/hr/*" { capabilities = ["deny"] }`, 'SCAN', 'metadata/'),
    ).toEqual(['app/db', 'app/web', 'top', 'zeta/x']);
    expect(
      await listing(`${scanner}\npath "secret/metadata/+/sub/bob" { capabilities = ["deny"] }`, 'SCAN', 'metadata/'),
    ).toEqual(['app/db', 'app/web', 'hr/alice', 'top', 'zeta/x']);
    // Like any exact path, "hr/" names the folder alone: its keys are other paths, which no rule decides.
    expect(
      await listing(`${scanner}\npath "secret/metadata/hr/" { capabilities = ["deny"] }`, 'SCAN', 'metadata/'),
    ).toEqual(KEYS);
  });

  it('a custom boolean callback without many answers the stricter question: it is asked each name, marked listing', async () => {
    const env = await seeded();
    const asked: CapabilityCheck[] = [];
    // It grants the folder and the names it knows, and ignores the mark: the others are hidden, not shown.
    const known = new Set(['metadata/', 'metadata/app/', 'metadata/top']);
    const authorize = (check: CapabilityCheck) => (asked.push(check), known.has(check.path));
    expect(await keys(env, { method: 'LIST', path: 'metadata/', authorize })).toEqual(['app/', 'top']);
    expect(asked).toEqual([
      { capability: 'list', path: 'metadata/' },
      ...['app/', 'hr/', 'top', 'zeta/'].map((name) => ({
        capability: 'list',
        path: `metadata/${name}`,
        listing: true,
      })),
    ]);
  });
});
