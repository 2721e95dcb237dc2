// Denies that policies state must hold over real HTTP.
// - A deny on a folder's glob (`secret/metadata/private/*`) holds a LIST of that folder: the plain listing, the
//   detailed listing and what sys/capabilities-self reports. Before, a LIST of `private/` was first matched as
//   `private` (without its slash), which only the broader `secret/metadata/*` grant covers, so the deny went unseen.
// - A listing shows every name of a folder the token may list unless a deny decides it: a "+" list rule beside a "*"
//   read rule lists the keys (which no rule grants list), and a denied sub-folder's name is left out.
// - A JSON policy naming a path twice keeps both stanzas, as an HCL policy does; before, the last one replaced a deny.
// - OpenBao's capabilities and LIST-deny tables (vendored, with their provenance, in tests/acl/openbao-acl-tables.ts)
//   hold through sys/capabilities-self.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL_POLICY, CAPABILITIES, LIST_SCAN_DENY, LIST_SCAN_DENY_POLICY } from '../../acl/openbao-acl-tables.js';
import { request, startServer, type Started } from '../harness.js';

let started: Started;
let token: string;
let segmentToken: string;
const send = (options: Parameters<typeof request>[1]) => request(started.url, options);
const tokenFor = async (policy: string) =>
  (
    await send({
      method: 'POST',
      path: '/v1/auth/token/create',
      token: started.rootToken,
      body: { policies: [policy] },
    })
  ).json.auth.client_token as string;
const list = (path: string, as = token) => send({ method: 'LIST', path: `/v1/${path}`, token: as });

const POLICY = `
path "secret/metadata/*"                  { capabilities = ["list", "read"] }
path "secret/metadata/private/*"          { capabilities = ["deny"] }
path "secret/detailed-metadata/*"         { capabilities = ["list", "read"] }
path "secret/detailed-metadata/private/*" { capabilities = ["deny"] }
path "secret/metadata/private/shared/*"   { capabilities = ["list"] }
`;

// Rules written without the folder's slash: "+" matches "public" of a LIST of "public/", and must still grant it
// although the prefix glob that matches "public/" itself (at the same position, so less specific) only grants read.
const SEGMENT_POLICY = `
path "secret/metadata/+" { capabilities = ["list"] }
path "secret/metadata/*" { capabilities = ["read"] }
`;

beforeAll(async () => {
  started = await startServer({ rootToken: 'sr.acl-list-root' });
  const root = started.rootToken;
  const put = (path: string, body: unknown) => send({ method: 'PUT', path, token: root, body });
  expect((await put('/v1/sys/policies/acl/lister', { policy: POLICY })).status).toBe(204);
  expect((await put('/v1/sys/policies/acl/segment', { policy: SEGMENT_POLICY })).status).toBe(204);
  for (const key of ['public/a', 'private/b', 'private/c', 'private/shared/d']) {
    expect((await put(`/v1/secret/data/${key}`, { data: { value: key } })).status).toBe(200);
  }
  token = await tokenFor('lister');
  segmentToken = await tokenFor('segment');
}, 120_000);

afterAll(() => started?.stop());

describe('LIST past a deny on the folder glob', () => {
  it('answers the listing of the mount root and of an allowed folder', async () => {
    const top = await list('secret/metadata/');
    expect(top.status).toBe(200);
    // The deny on "private/*" matches the sub-folder's path "private/" and ranks above the "secret/metadata/*" grant:
    // the name is hidden, as the LIST of that folder is refused.
    expect(top.json.data.keys).toEqual(['public/']);
    expect((await list('secret/metadata/public/')).json.data.keys).toEqual(['a']);
    const detailed = await list('secret/detailed-metadata/public/');
    expect(detailed.json.data.keys).toEqual(['a']);
    expect(detailed.json.data.key_info.a.current_version).toBe(1);
  });

  it.each(['secret/metadata/private/', 'secret/metadata/private', 'secret/detailed-metadata/private/'])(
    'refuses LIST %s with 403 and no names',
    async (path) => {
      const refused = await list(path);
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ errors: ['permission denied'] });
      expect(refused.text).not.toContain('"b"');
    },
  );

  it('refuses the same listing asked as GET ?list=true', async () => {
    const refused = await send({ path: '/v1/secret/metadata/private/?list=true', token });
    expect(refused.status).toBe(403);
  });

  it('still lets a more specific grant below the deny list its own folder', async () => {
    const shared = await list('secret/metadata/private/shared/');
    expect(shared.status).toBe(200);
    expect(shared.json.data.keys).toEqual(['d']);
  });

  it('reports deny for the folder in sys/capabilities-self', async () => {
    const paths = [
      'secret/metadata/private/',
      'secret/detailed-metadata/private/',
      'secret/metadata/public/',
      'secret/metadata/private/shared/',
    ];
    const answer = await send({ method: 'POST', path: '/v1/sys/capabilities-self', token, body: { paths } });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({
      'secret/metadata/private/': ['deny'],
      'secret/detailed-metadata/private/': ['deny'],
      'secret/metadata/public/': ['read', 'list'],
      'secret/metadata/private/shared/': ['list'],
    });
  });

  it('a segment rule written without the slash (secret/metadata/+) still grants LIST of secret/metadata/<name>/', async () => {
    const listed = await list('secret/metadata/public/', segmentToken);
    expect(listed.status).toBe(200);
    expect(listed.json.data.keys).toEqual(['a']);
    const paths = ['secret/metadata/public/', 'secret/metadata/public/a'];
    const answer = await send({
      method: 'POST',
      path: '/v1/sys/capabilities-self',
      token: segmentToken,
      body: { paths },
    });
    expect(answer.json.data).toMatchObject({
      'secret/metadata/public/': ['read', 'list'],
      'secret/metadata/public/a': ['read'],
    });
    // The segment rule does not reach a folder two levels down: only the read-only glob matches there.
    expect((await list('secret/metadata/private/shared/', segmentToken)).status).toBe(403);
  });
});

describe('a JSON policy that names a path twice', () => {
  // A policy text with the path "secret/data/public/*" as a key twice in one object, then once more in a second
  // "path" member: every stanza counts, so the deny holds whatever order the stanzas come in.
  const stanza = (capabilities: string[]) =>
    `"secret/data/public/*": {"capabilities": ${JSON.stringify(capabilities)}}`;
  const policies = {
    'deny-first': `{"path": {${stanza(['deny'])}, ${stanza(['read', 'list'])}}}`,
    'deny-last': `{"path": {${stanza(['read', 'list'])}, ${stanza(['deny'])}}}`,
    'two-path-keys': `{"path": {${stanza(['deny'])}}, "path": {${stanza(['read'])}}}`,
  };

  it.each(Object.keys(policies))('%s: the deny holds over HTTP', async (name) => {
    const stored = await send({
      method: 'PUT',
      path: `/v1/sys/policies/acl/${name}`,
      token: started.rootToken,
      body: { policy: policies[name as keyof typeof policies] },
    });
    expect(stored.status).toBe(204);
    const caller = await tokenFor(name);
    expect((await send({ path: '/v1/secret/data/public/a', token: caller })).status).toBe(403);
    const answer = await send({
      method: 'POST',
      path: '/v1/sys/capabilities-self',
      token: caller,
      body: { paths: ['secret/data/public/a'] },
    });
    expect(answer.json.data['secret/data/public/a']).toEqual(['deny']);
  });

  it('merges grants as HCL does: the capabilities of both stanzas add up', async () => {
    const policy = `{"path": {${stanza(['read'])}, "secret/data/public/*": {"capabilities": ["update"]}}}`;
    expect(
      (await send({ method: 'PUT', path: '/v1/sys/policies/acl/merged', token: started.rootToken, body: { policy } }))
        .status,
    ).toBe(204);
    const caller = await tokenFor('merged');
    const answer = await send({
      method: 'POST',
      path: '/v1/sys/capabilities-self',
      token: caller,
      body: { paths: ['secret/data/public/a'] },
    });
    expect(answer.json.data['secret/data/public/a']).toEqual(['read', 'update']);
    expect((await send({ path: '/v1/secret/data/public/a', token: caller })).status).toBe(200);
  });
});

describe("OpenBao's tables through sys/capabilities-self", () => {
  async function capabilitiesOf(name: string, policy: string, paths: string[]): Promise<Record<string, string[]>> {
    expect(
      (await send({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, token: started.rootToken, body: { policy } }))
        .status,
    ).toBe(204);
    const answer = await send({
      method: 'POST',
      path: '/v1/sys/capabilities-self',
      token: await tokenFor(name),
      body: { paths },
    });
    expect(answer.status).toBe(200);
    return answer.json.data;
  }

  it('TestACL_Capabilities', async () => {
    const answered = await capabilitiesOf(
      'openbao-dev',
      ACL_POLICY,
      CAPABILITIES.map(([path]) => path),
    );
    for (const [path, expected] of CAPABILITIES) expect([path, answered[path]]).toEqual([path, expected]);
  });

  it('TestACL_ListScanWildcardDeny', async () => {
    const answered = await capabilitiesOf(
      'openbao-list',
      LIST_SCAN_DENY_POLICY,
      LIST_SCAN_DENY.map(([path]) => `${path}/`),
    );
    for (const [path, allowed] of LIST_SCAN_DENY)
      expect([path, answered[`${path}/`]!.includes('list')]).toEqual([path, allowed]);
  });
});
