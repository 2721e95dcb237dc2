// The ways of asking the Acl must never disagree: `allowsMany` (and the authorizer's `many`) answers exactly what
// `allows` answers for each check, or `shows` for a listing check (a `list` or `scan` check marked `listing`);
// `capabilities` reports exactly the capabilities `allows` grants (scan only where a policy states it); and `shows`
// answers the rule of tests/acl/listing-model.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Acl, type NamedPolicy, type PolicyCapability, type RequiredCapability } from '../../src/acl/index.js';
import type { CapabilityCheck } from '../../src/core/framework/request.js';
import { listingModel, type ListingCapability } from './listing-model.js';

const REQUIRED: RequiredCapability[] = ['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo', 'scan'];
const PLAIN = REQUIRED.filter((capability) => capability !== 'scan');

const segment = fc.constantFrom('a', 'b', 'ab', 'team', '+', '');
const rulePath = fc
  .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '*', '/', '/*'))
  .map(([slash, segments, tail]) => (slash ? '/' : '') + segments.join('/') + tail)
  .filter((path) => !path.includes('+*'));
// Listing rights weigh more than the others, so that list and scan rules often compete on one path; one rule in four
// may hold a deny.
const granting = ['list', 'scan', 'list', 'scan', ...REQUIRED] as PolicyCapability[];
const capabilities = fc.oneof(
  { arbitrary: fc.subarray(granting), weight: 3 },
  { arbitrary: fc.subarray(['deny', ...granting] as PolicyCapability[]), weight: 1 },
);
const rules = fc.array(fc.record({ path: rulePath, capabilities }), { maxLength: 8 });
// About half the policies are old-style: they never name scan, so their list grants scan too.
const policy = fc
  .tuple(rules, fc.boolean())
  .map(([list, old]) =>
    old
      ? list.map((rule) => ({ ...rule, capabilities: rule.capabilities.filter((capability) => capability !== 'scan') }))
      : list,
  );
const policies = fc
  .array(policy, { minLength: 1, maxLength: 3 })
  .map((list) => list.map((r, i): NamedPolicy => ({ name: `p${i}`, rules: r })));
const name = fc.constantFrom('a', 'b', 'ab', 'abc', 'team', 'x', '');
const requestPath = fc
  .tuple(fc.array(name, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([segments, slash]) => segments.join('/') + (slash ? '/' : ''));

/** Request paths, half of them built on a rule's path (its `+` filled, maybe more after it) so that rules often match. */
function pathsNear(list: NamedPolicy[]): fc.Arbitrary<string> {
  const literals = list.flatMap((p) =>
    p.rules.map((rule) => rule.path.replace(/^\//, '').replace(/\*$/, '').replaceAll('+', 'x')),
  );
  if (literals.length === 0) return requestPath;
  const near = fc
    .tuple(fc.constantFrom(...literals), fc.constantFrom('', 'b', 'x', '/a', 'b/team'), fc.boolean())
    .map(([literal, more, slash]) => literal + more + (slash ? '/' : ''));
  return fc.oneof(requestPath, near);
}

type Check = { capability: RequiredCapability; path: string; listing?: true };

/** Whether the Acl takes a check as a listing's (see `single`): only a list or scan check marked exactly `true`. */
const isListing = (check: Check): check is Check & { capability: ListingCapability } =>
  check.listing === true && (check.capability === 'list' || check.capability === 'scan');

/** What one check asked alone answers. */
const single = (acl: Acl, check: Check) =>
  isListing(check) ? acl.shows(check.capability, check.path) : acl.allows(check.capability, check.path);

/**
 * A batch of checks: any checks, some marked `listing` whatever their capability, or a listing page (names in one
 * folder, keys and sub-folders, each asked about with the listing's capability marked `listing` and with read, as the
 * KV engine asks; unmarked, as it asks a sub-folder's readable check).
 */
function batchFor(list: NamedPolicy[], maxLength = 40): fc.Arbitrary<Check[]> {
  const paths = pathsNear(list);
  const unmarked = fc.record({ capability: fc.constantFrom(...REQUIRED), path: paths });
  const check = fc.oneof(
    { arbitrary: unmarked, weight: 2 },
    { arbitrary: unmarked.map((one): Check => ({ ...one, listing: true })), weight: 1 },
  );
  const checks = fc.array(check, { maxLength });
  const folder = paths.map((path) => path.slice(0, path.lastIndexOf('/') + 1));
  const page = fc
    .tuple(
      folder,
      fc.array(fc.tuple(name, fc.boolean()), { minLength: 1, maxLength: 12 }),
      fc.constantFrom<RequiredCapability>('list', 'scan'),
      fc.boolean(),
    )
    .map(([at, names, capability, marked]) =>
      names.flatMap(([key, isFolder]) => {
        const path = at + key + (isFolder ? '/' : '');
        return [
          marked ? { capability, path, listing: true as const } : { capability, path },
          { capability: 'read' as const, path },
        ];
      }),
    );
  return fc.oneof(checks, page);
}
const withBatch = policies.chain((list) => batchFor(list).map((checks) => [list, checks] as const));

/**
 * Unmarked listing checks on a path that is no folder (no trailing '/'), by verdict; scans granted only by an old list;
 * listing checks shown though `allows` refuses them, and hidden, each on keys and on sub-folders.
 */
const seen = {
  granted: 0,
  refused: 0,
  scanByList: 0,
  shownUngranted: 0,
  hidden: 0,
  folderShownUngranted: 0,
  folderHidden: 0,
};
function count(acl: Acl, checks: readonly Check[]): void {
  for (const check of checks) {
    const { capability, path } = check;
    if (capability !== 'list' && capability !== 'scan') continue;
    const allowed = acl.allows(capability, path);
    if (isListing(check)) {
      const shown = acl.shows(capability, path);
      const folder = path.endsWith('/') ? 'folder' : '';
      if (!shown) seen[folder ? 'folderHidden' : 'hidden']++;
      else if (!allowed) seen[folder ? 'folderShownUngranted' : 'shownUngranted']++;
      continue;
    }
    if (path.endsWith('/')) continue;
    seen[allowed ? 'granted' : 'refused']++;
    // capabilities() reports only a stated scan.
    if (allowed && capability === 'scan' && !acl.capabilities(path).includes('scan')) seen.scanByList++;
  }
}

describe('Acl: allows, shows, allowsMany and capabilities agree', () => {
  it('allowsMany(checks) equals each check asked alone (shows for a listing check), for any policies and batch', () => {
    fc.assert(
      fc.property(withBatch, ([list, checks]) => {
        const acl = new Acl(list);
        count(acl, checks);
        expect(acl.allowsMany(checks)).toEqual(checks.map((check) => single(acl, check)));
      }),
      { seed: 20_270_027, numRuns: 5000 },
    );
    // The property saw listing checks off folders answered both ways, and old-style policies granting scan by list;
    // and names of keys and sub-folders a listing shows without a grant, or hides.
    expect(seen.granted).toBeGreaterThan(1000);
    expect(seen.refused).toBeGreaterThan(1000);
    expect(seen.scanByList).toBeGreaterThan(100);
    for (const kind of ['shownUngranted', 'hidden', 'folderShownUngranted', 'folderHidden'] as const)
      expect([kind, seen[kind] > 200]).toEqual([kind, true]);
  });

  it('shows(capability, path) answers the rule: granted, or no deny among the rules weighed; so it shows all allows grants', () => {
    const capability = fc.constantFrom<ListingCapability>('list', 'scan');
    const verdicts = { shownUngranted: 0, hidden: 0 };
    fc.assert(
      fc.property(
        policies.chain((list) => fc.tuple(fc.constant(list), pathsNear(list), capability)),
        ([list, path, wanted]) => {
          const acl = new Acl(list);
          const shown = acl.shows(wanted, path);
          expect(shown).toBe(listingModel(list)(wanted, path));
          if (acl.allows(wanted, path)) expect(shown).toBe(true);
          else verdicts[shown ? 'shownUngranted' : 'hidden']++;
        },
      ),
      { seed: 20_270_027, numRuns: 3000 },
    );
    expect(verdicts.shownUngranted).toBeGreaterThan(500);
    expect(verdicts.hidden).toBeGreaterThan(150);
  });

  it("the authorizer's many equals its single check, for any mount", () => {
    const mount = fc.constantFrom('', 'a', 'a/', 'ab/team', 'team/');
    fc.assert(
      fc.property(withBatch, mount, ([list, checks], at) => {
        const authorize = new Acl(list).authorizer(at);
        // Engines ask only with their own capabilities; the Acl answers sudo too.
        const relative = checks.filter((check) => check.capability !== 'sudo') as CapabilityCheck[];
        expect(authorize.many(relative)).toEqual(relative.map((one) => authorize(one)));
      }),
      { seed: 20_270_027, numRuns: 1000 },
    );
  });

  it('capabilities(path) reports each capability exactly when allows grants it', () => {
    fc.assert(
      fc.property(
        policies.chain((list) => pathsNear(list).map((path) => [list, path] as const)),
        ([list, path]) => {
          const acl = new Acl(list);
          const reported = acl.capabilities(path) as string[];
          for (const capability of PLAIN)
            expect([capability, reported.includes(capability)]).toEqual([capability, acl.allows(capability, path)]);
          // A stated scan is reported; one implied by list is granted but not reported.
          if (reported.includes('scan')) expect(acl.allows('scan', path)).toBe(true);
          if (acl.allows('scan', path)) expect(reported.includes('scan') || reported.includes('list')).toBe(true);
          expect(reported.includes('deny')).toBe(!REQUIRED.some((capability) => reported.includes(capability)));
        },
      ),
      { seed: 20_270_027, numRuns: 1000 },
    );
  });

  it('with the root policy among them, everything is allowed and capabilities says root', () => {
    fc.assert(
      fc.property(
        policies.chain((list) => batchFor(list, 10).map((checks) => [list, checks] as const)),
        ([list, checks]) => {
          const acl = new Acl([...list, { name: 'root', rules: [] }]);
          expect(acl.allowsMany(checks)).toEqual(checks.map(() => true));
          for (const check of checks) {
            const { capability, path } = check;
            expect(single(acl, check)).toBe(true);
            expect(acl.allows(capability, path)).toBe(true);
            expect(acl.capabilities(path)).toEqual(['root']);
          }
        },
      ),
      { seed: 20_270_027, numRuns: 100 },
    );
  });
});
