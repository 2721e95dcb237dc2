import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Acl } from '../../src/acl/acl.js';
import { parsePolicy } from '../../src/acl/policy.js';
import type { CapabilityCheck, EngineRequest } from '../../src/core/framework/request.js';
import { listingModel } from '../acl/listing-model.js';
import { dataOf, setup } from './helpers.js';

/**
 * Random keys, random policies with grants and denies at random depths, and every kind of listing, paged: a listing
 * answers exactly the names the token may see, and the metadata of exactly those keys. A name is shown unless a deny
 * decides it (tests/acl/listing-model.ts, asked one name at a time); a detailed listing's keys also need read on
 * metadata/, and readable_only its strict checks. The engine asks through the authorizer's bulk form, through a plain
 * callback passing each check on, or through a callback that drops the `listing` mark: that one answers the strict
 * question, and shows only the names granted the listing's capability.
 */

const SEGMENTS = ['a', 'b', 'c'];
const keyPath = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

const rule = fc
  .record({
    route: fc.constantFrom('metadata/', 'metadata/', 'detailed-metadata/', 'data/', ''),
    parts: fc.array(fc.constantFrom(...SEGMENTS, '+'), { maxLength: 2 }),
    tail: fc.constantFrom('', '/', '*', '/*'),
    capabilities: fc.oneof(fc.subarray(['list', 'read', 'scan'], { minLength: 1 }), fc.constant(['deny'])),
  })
  .map(({ route, parts, tail, capabilities }) => {
    const path = `secret/${route}${parts.join('/')}${parts.length === 0 && tail.startsWith('/') ? tail.slice(1) : tail}`;
    return `path "${path}" { capabilities = ${JSON.stringify(capabilities)} }`;
  })
  // A policy may not glob right after a segment wildcard.
  .filter((text) => !text.includes('+*'));

/** A broad grant to start from, so that the random rules (grants and denies) carve into something. */
const base = fc.constantFrom(
  'path "secret/*" { capabilities = ["list", "read"] }',
  'path "secret/metadata/*" { capabilities = ["list", "read"] }',
  'path "secret/+/*" { capabilities = ["list", "scan", "read"] }',
  'path "secret/detailed-metadata/*" { capabilities = ["list"] }',
  // Grants on the listed folders' exact paths only, and a "+" list beside a "*" read: their names have no grant.
  'path "secret/metadata/" { capabilities = ["list"] }\npath "secret/detailed-metadata/" { capabilities = ["list"] }\npath "secret/metadata/*" { capabilities = ["read"] }',
  'path "secret/metadata/+" { capabilities = ["list"] }\npath "secret/metadata/*" { capabilities = ["read"] }',
);

const listing = fc.record({
  folder: fc
    .array(fc.constantFrom(...SEGMENTS), { maxLength: 2 })
    .map((parts) => parts.map((part) => `${part}/`).join('')),
  method: fc.constantFrom('LIST', 'SCAN'),
  route: fc.constantFrom('metadata', 'detailed-metadata'),
  readable: fc.boolean(),
  limit: fc.integer({ min: 0, max: 3 }),
  asker: fc.constantFrom('bulk', 'plain', 'strict'),
});

type Listing = {
  folder: string;
  method: 'LIST' | 'SCAN';
  route: 'metadata' | 'detailed-metadata';
  readable: boolean;
  limit: number;
  asker: 'bulk' | 'plain' | 'strict';
};

/** Every name the listing finds in storage, before anyone is asked: children of the folder, or keys below it. */
function candidates(keys: readonly string[], { folder, method }: Listing): string[] {
  const below = keys.filter((key) => key.startsWith(folder)).map((key) => key.slice(folder.length));
  const names =
    method === 'SCAN' ? below : below.map((rest) => (rest.includes('/') ? rest.slice(0, rest.indexOf('/') + 1) : rest));
  return [...new Set(names)].sort();
}

/**
 * What the token may be answered, one name at a time: its listing check by the model (strictly, by `allows`, for a
 * callback that drops the mark), the others by `allows`.
 */
function visible(
  acl: Acl,
  shows: ReturnType<typeof listingModel>,
  keys: readonly string[],
  listing: Listing,
): string[] {
  const { folder, method, route, readable, asker } = listing;
  const allows = (capability: 'list' | 'scan' | 'read', path: string) => acl.allows(capability, `secret/${path}`);
  const capability = method === 'LIST' ? 'list' : 'scan';
  const listed = (path: string) =>
    asker === 'strict' ? allows(capability, path) : shows(capability, `secret/${path}`);
  return candidates(keys, listing).filter((name) => {
    const path = folder + name;
    const isFolder = name.endsWith('/');
    if (!listed(`${route}/${path}`)) return false;
    if (route === 'detailed-metadata' && !isFolder && !allows('read', `metadata/${path}`)) return false;
    return !readable || allows(isFolder ? 'list' : 'read', `${isFolder ? 'metadata' : 'data'}/${path}`);
  });
}

describe('listings answer exactly what the token may see (property)', () => {
  it('random keys, random policies, every listing kind, paged', async () => {
    let nonEmpty = 0;
    let hidden = 0;
    let ungranted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(keyPath, { minLength: 1, maxLength: 10 }),
        fc.tuple(base, fc.array(rule, { minLength: 1, maxLength: 5 })).map(([first, rest]) => [first, ...rest]),
        fc.array(listing, { minLength: 1, maxLength: 6 }),
        async (keys, rules, listings) => {
          const env = setup();
          for (const key of keys) expect((await env.W(key, { key })).status).toBe(200);
          const policies = [{ name: 'random', rules: parsePolicy(rules.join('\n')) }];
          const acl = new Acl(policies);
          const shows = listingModel(policies);
          const authorizer = acl.authorizer('secret/');
          const askers: Record<Listing['asker'], NonNullable<EngineRequest['authorize']>> = {
            bulk: authorizer,
            plain: (check: CapabilityCheck) => authorizer(check),
            strict: ({ capability, path }: CapabilityCheck) => authorizer({ capability, path }),
          };
          for (const asked of listings as Listing[]) {
            const authorize = askers[asked.asker];
            const path = `${asked.route}/${asked.folder}`;
            const query = {
              ...(asked.readable ? { readable_only: 'true' } : {}),
              ...(asked.limit > 0 ? { limit: String(asked.limit) } : {}),
            };
            const first = await env.handle({ method: asked.method, path, query, authorize });
            if (!acl.allows(asked.method === 'LIST' ? 'list' : 'scan', `secret/${path}`)) {
              expect(first.status).toBe(403);
              continue;
            }
            const want = visible(acl, shows, keys, asked);
            const got: string[] = [];
            for (let response = first; ;) {
              if (response.status === 404) break;
              expect(response.status).toBe(200);
              const data = dataOf(response);
              got.push(...data.keys);
              if (asked.route === 'detailed-metadata') {
                expect(Object.keys(data.key_info)).toEqual(data.keys);
                for (const name of data.keys)
                  expect(data.key_info[name]).toEqual(
                    name.endsWith('/') ? {} : dataOf(await env.MR(asked.folder + name)),
                  );
              }
              if (asked.limit === 0 || data.keys.length < asked.limit) break;
              response = await env.handle({
                method: asked.method,
                path,
                query: { ...query, after: data.keys.at(-1) },
                authorize,
              });
            }
            expect(got).toEqual(want);
            if (want.length > 0) nonEmpty += 1;
            hidden += candidates(keys, asked).length - want.length;
            // Names shown although `allows` refuses their listing check: what the mark changes.
            if (asked.asker !== 'strict')
              ungranted += want.filter(
                (name) =>
                  !acl.allows(
                    asked.method === 'LIST' ? 'list' : 'scan',
                    `secret/${asked.route}/${asked.folder}${name}`,
                  ),
              ).length;
          }
        },
      ),
      { seed: 27_0, numRuns: 200 },
    );
    // The runs both show names and hide some, and show names that only the `listing` mark lets through.
    expect(nonEmpty).toBeGreaterThan(50);
    expect(hidden).toBeGreaterThan(50);
    expect(ungranted).toBeGreaterThan(40);
  }, 30_000);
});
