// Listing extensions: SCAN and LIST pages must cost the same in a big mount as in a small one (storage listPage,
// never the whole folder), also when every name of the page is checked against an ACL, and an ACL-filtered LIST
// against the same LIST unfiltered. Since issue 27 every name a checked LIST answers costs a check of its own, which no
// speed-up removes: the ceiling rows measure the fastest such a LIST can be, the LIST unchecked plus those checks.
import { Acl, KvEngine, MemoryStorage, parsePolicy } from 'strongroom';
import { compare } from './harness/harness.mjs';
import { expectOk, payload } from './harness/fixtures.mjs';

const PAGE = 100;
const SMALL = 1_000;
const LARGE = 100_000;
const FILTERED = 10_000;

/** `keys` keys: a flat folder `flat/` and the same names spread over sub-folders of `tree/` for SCAN. */
async function mount(keys) {
  const kv = new KvEngine({ storage: new MemoryStorage() });
  for (let index = 0; index < keys; index++) {
    const name = `key-${String(index).padStart(6, '0')}`;
    await kv.write(`flat/${name}`, payload(index));
    await kv.write(`tree/${String(index % 50).padStart(2, '0')}/${name}`, payload(index));
  }
  return kv;
}

/** A page of PAGE names from the middle of the listing (a page after a name, as a client paging through would ask). */
function page(kv, method, folder, after, authorize) {
  return async () => {
    const response = await expectOk(
      kv.handle({ method, path: `metadata/${folder}`, query: { after, limit: String(PAGE) }, authorize }),
    );
    if (response.body.data.keys.length !== PAGE) throw new Error(`${method} page came back short`);
  };
}

/**
 * The work an ACL-checked LIST cannot do without, as a ceiling for it: the LIST unchecked, the route's own check, and
 * each listed name's listing check (marked `listing`, as the engine asks it) built and answered by the Acl in one call;
 * none of the engine's filter plumbing.
 */
function requiredWork(kv, query, authorize) {
  return async () => {
    const response = await expectOk(kv.handle({ method: 'LIST', path: 'metadata/flat/', query }));
    if (authorize({ capability: 'list', path: 'metadata/flat/' }) !== true) throw new Error('the LIST was refused');
    const verdicts = authorize.many(
      response.body.data.keys.map((name) => ({ capability: 'list', path: `metadata/flat/${name}`, listing: true })),
    );
    if (verdicts.length !== response.body.data.keys.length) throw new Error('verdicts went missing');
  };
}

function flatRow(name, result, limitName) {
  return { section: 'listing', name, unit: 'pages/s', result, limitName, goal: { kind: 'slowdown-max', value: 1.3 } };
}

/** A policy of 50 rules over team folders, of which the listing's caller may read about half the names. */
function fiftyRulePolicy() {
  const rules = ['path "secret/metadata/*" { capabilities = ["list"] }'];
  for (let team = 0; team < 45; team++) rules.push(`path "secret/data/other-${team}/*" { capabilities = ["read"] }`);
  rules.push('path "secret/data/flat/key-00*" { capabilities = ["read"] }');
  rules.push('path "secret/data/flat/key-0+" { capabilities = ["deny"] }');
  rules.push('path "secret/data/flat/key-001*" { capabilities = ["deny"] }');
  rules.push('path "secret/data/flat/key-0050*" { capabilities = ["read"] }');
  rules.push('path "secret/data/+/key-0000*" { capabilities = ["read", "list"] }');
  return new Acl([{ name: 'fifty', rules: parsePolicy(rules.join('\n')) }]);
}

export async function listingBenchmarks(log) {
  const rows = [];
  log(`listing: filling mounts of ${SMALL} and ${LARGE} keys`);
  const small = await mount(SMALL);
  const large = await mount(LARGE);
  const middle = (keys) => `key-${String(keys / 2).padStart(6, '0')}`;

  log('listing: SCAN and LIST pages');
  rows.push(
    flatRow(
      `SCAN page of ${PAGE}, ${LARGE} keys vs ${SMALL}`,
      await compare(
        { name: 'scan large', fn: page(large, 'SCAN', 'tree/', `25/${middle(LARGE)}`) },
        { name: 'scan small', fn: page(small, 'SCAN', 'tree/', `25/${middle(SMALL)}`) },
      ),
      `same page, ${SMALL} keys`,
    ),
  );
  rows.push(
    flatRow(
      `LIST page of ${PAGE}, ${LARGE} keys vs ${SMALL}`,
      await compare(
        { name: 'list large', fn: page(large, 'LIST', 'flat/', middle(LARGE)) },
        { name: 'list small', fn: page(small, 'LIST', 'flat/', middle(SMALL)) },
      ),
      `same page, ${SMALL} keys`,
    ),
  );

  // Each name of the page is asked about on its own path (one bulk call per page): the page must stay as flat.
  const lister = new Acl([
    { name: 'lister', rules: parsePolicy('path "secret/metadata/*" { capabilities = ["list"] }') },
  ]).authorizer('secret');
  rows.push(
    flatRow(
      `ACL-checked LIST page of ${PAGE}, ${LARGE} keys vs ${SMALL}`,
      await compare(
        { name: 'checked list large', fn: page(large, 'LIST', 'flat/', middle(LARGE), lister) },
        { name: 'checked list small', fn: page(small, 'LIST', 'flat/', middle(SMALL), lister) },
      ),
      `same page, ${SMALL} keys`,
    ),
  );

  // Its ceiling: a page of checked names costs at least the page and the checks.
  rows.push({
    section: 'listing',
    name: `ceiling of the row above: the page of ${PAGE} unchecked, then the route's check and the ${PAGE} names' list checks in one Acl call`,
    unit: 'pages/s',
    result: await compare(
      {
        name: 'checked page required work',
        fn: requiredWork(large, { after: middle(LARGE), limit: String(PAGE) }, lister),
      },
      { name: 'checked list large', fn: page(large, 'LIST', 'flat/', middle(LARGE), lister) },
    ),
    limitName: `the ACL-checked page, ${LARGE} keys`,
    goal: { kind: 'info' },
  });

  log(`listing: ACL-filtered LIST of ${FILTERED} names`);
  const filtered = await mount(FILTERED);
  const authorize = fiftyRulePolicy().authorizer('secret');
  const visible = (
    await filtered.handle({ method: 'LIST', path: 'metadata/flat/', query: { readable_only: 'true' }, authorize })
  ).body.data.keys.length;
  log(`listing: the policy shows ${visible} of ${FILTERED} names`);
  const list = (query) => async () => {
    const response = await expectOk(filtered.handle({ method: 'LIST', path: 'metadata/flat/', query, authorize }));
    if (response.body.data.keys.length !== (query.readable_only ? visible : FILTERED))
      throw new Error('LIST lost names');
  };
  rows.push({
    section: 'listing',
    name: `ACL-filtered LIST of ${FILTERED} names, 50-rule policy, vs unfiltered`,
    unit: 'lists/s',
    result: await compare(
      { name: 'filtered', fn: list({ readable_only: 'true' }) },
      { name: 'unfiltered', fn: list({}) },
    ),
    limitName: 'the same LIST unfiltered',
    goal: { kind: 'info' },
  });
  // The unfiltered LIST checks every name too (list on its own path): its ceiling, as for the page above.
  rows.push({
    section: 'listing',
    name: `ceiling of the unfiltered LIST above: the LIST unchecked, then the route's check and the ${FILTERED} names' list checks in one Acl call`,
    unit: 'lists/s',
    result: await compare(
      { name: 'unfiltered required work', fn: requiredWork(filtered, {}, authorize) },
      { name: 'unfiltered', fn: list({}) },
    ),
    limitName: 'the same LIST unfiltered, checked',
    goal: { kind: 'info' },
  });
  return rows;
}
