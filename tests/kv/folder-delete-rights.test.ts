import { describe, expect, it } from 'vitest';
import { Acl } from '../../src/acl/acl.js';
import { parsePolicy } from '../../src/acl/policy.js';
import { KvEngine } from '../../src/kv/index.js';
import { testStorage } from '../support/test-storage.js';
import { policy } from './helpers.js';

/** Finding 22: a recursive folder delete enumerates the folder, so it needs `list` on it as well as `delete`. */

async function tree() {
  const kv = new KvEngine({ storage: testStorage() });
  for (const path of ['t/x', 't/y/z', 'u']) await kv.write(path, { path });
  return kv;
}

const recursive = { method: 'DELETE' as const, path: 'metadata/t/', query: { recursive: 'true' } };

describe('DELETE metadata/<folder>/?recursive=true needs list on the folder', () => {
  it('a token with only delete on metadata/* is refused (403) and nothing is removed', async () => {
    const kv = await tree();
    const authorize = new Acl([
      { name: 'deleter', rules: parsePolicy('path "secret/metadata/*" { capabilities = ["delete"] }') },
    ]).authorizer('secret/');
    expect((await kv.handle({ ...recursive, authorize })).status).toBe(403);
    expect(await kv.scan('')).toEqual(['t/x', 't/y/z', 'u']);
  });

  it('with list and delete it removes the folder', async () => {
    const kv = await tree();
    const authorize = new Acl([
      { name: 'deleter', rules: parsePolicy('path "secret/metadata/*" { capabilities = ["delete", "list"] }') },
    ]).authorizer('secret/');
    expect((await kv.handle({ ...recursive, authorize })).status).toBe(204);
    expect(await kv.scan('')).toEqual(['u']);
  });

  it('asks list on the folder path as written, before any key', async () => {
    const kv = await tree();
    const { authorize, asked } = policy('delete:metadata/t/', 'delete:metadata/t/x', 'delete:metadata/t/y/z');
    expect((await kv.handle({ ...recursive, authorize })).status).toBe(403);
    expect(asked).toEqual([
      { capability: 'delete', path: 'metadata/t/' },
      { capability: 'list', path: 'metadata/t/' },
    ]);
    const granted = policy('delete:metadata/t/', 'list:metadata/t/', 'delete:metadata/t/x', 'delete:metadata/t/y/z');
    expect((await kv.handle({ ...recursive, authorize: granted.authorize })).status).toBe(204);
    expect(await kv.scan('')).toEqual(['u']);
  });

  it('a DELETE of a folder without recursive asks nothing more and stays a 404', async () => {
    const kv = await tree();
    const { authorize, asked } = policy('delete:metadata/t/');
    expect((await kv.handle({ method: 'DELETE', path: 'metadata/t/', authorize })).status).toBe(404);
    expect(asked).toEqual([{ capability: 'delete', path: 'metadata/t/' }]);
  });
});
