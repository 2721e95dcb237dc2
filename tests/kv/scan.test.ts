import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/adapters/storage/memory/memory-storage.js';
import type { CapabilityCheck, EngineRequest } from '../../src/core/framework/request.js';
import type { Storage } from '../../src/ports/storage.js';
import { testStorage } from '../support/test-storage.js';
import { dataOf, expectPlain404, setup } from './helpers.js';

/** A storage without listPage, so that listings take the folder-by-folder path. */
function withoutListPage(inner: MemoryStorage): Storage {
  return {
    get: (key) => inner.get(key),
    put: (key, value) => inner.put(key, value),
    delete: (key) => inner.delete(key),
    list: (prefix) => inner.list(prefix),
    compareAndPut: (key, expected, value) => inner.compareAndPut(key, expected, value),
  };
}

const TREE = ['a', 'a/b', 'a/b/c', 'a-b', 'a/b/d/e', 'b/x', 'z', 'é', '😀/k', 'ｚ'];
// Byte order of the UTF-8 form: '-' (2d) < '/' (2f); é (c3 a9) < ｚ (ef bd 9a) < 😀 (f0 ...).
const SCANNED = ['a', 'a-b', 'a/b', 'a/b/c', 'a/b/d/e', 'b/x', 'z', 'é', 'ｚ', '😀/k'];

async function seeded(storage?: Storage) {
  const env = setup(storage ? { storage } : {});
  for (const path of TREE) await env.W(path, { v: path });
  const scan = async (folder: string, query: Record<string, string> = {}) => {
    const response = await env.handle({ method: 'SCAN', path: `metadata/${folder}`, query });
    return response.status === 404 ? [] : (dataOf(response).keys as string[]);
  };
  return { ...env, scan };
}

describe('SCAN metadata/<folder>/', () => {
  it('answers every key below the folder, relative to it, in byte order, and no folder names', async () => {
    const env = await seeded();
    expect(await env.scan('')).toEqual(SCANNED);
    expect(await env.scan('a/')).toEqual(['b', 'b/c', 'b/d/e']);
    expect(await env.scan('a')).toEqual(['b', 'b/c', 'b/d/e']);
    expect(await env.kv.scan('a/b')).toEqual(['c', 'd/e']);
    const viaGet = await env.handle({ method: 'GET', path: 'metadata/', query: { scan: 'true' } });
    expect(dataOf(viaGet)).toEqual({ keys: SCANNED });
  });

  it('pages with after and limit exactly like LIST, over storages with and without listPage', async () => {
    for (const storage of [testStorage(), withoutListPage(new MemoryStorage())]) {
      const env = await seeded(storage);
      for (let limit = 1; limit <= SCANNED.length + 1; limit++) {
        const pages: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await env.scan(
            '',
            after === undefined ? { limit: String(limit) } : { limit: String(limit), after },
          );
          pages.push(...page);
          if (page.length < limit) break;
          after = page.at(-1);
        }
        expect(pages).toEqual(SCANNED);
      }
      // `after` need not exist; a name inside a skipped sub-folder resumes right after it.
      expect(await env.scan('', { after: 'a/b/c' })).toEqual(SCANNED.slice(4));
      expect(await env.scan('', { after: 'a/b/cc', limit: '2' })).toEqual(['a/b/d/e', 'b/x']);
      expect(await env.scan('', { after: 'a/' })).toEqual(SCANNED.slice(2));
    }
  });

  it('an empty folder answers 404 with no errors; a SCAN of a key path is a SCAN of the folder of that name', async () => {
    const env = await seeded();
    expectPlain404(await env.handle({ method: 'SCAN', path: 'metadata/nothing/' }));
    expectPlain404(await env.handle({ method: 'SCAN', path: 'metadata/z' }));
  });

  it('bad paging input is a 400, never a 500', async () => {
    const env = await seeded();
    const response = await env.handle({ method: 'SCAN', path: 'metadata/', query: { limit: 'many' } });
    expect(response.status).toBe(400);
  });

  it('asks authorize for `scan` on the folder path, and a refusal is a 403 that lists nothing', async () => {
    const env = await seeded();
    const checks: CapabilityCheck[] = [];
    const request = (allow: boolean): EngineRequest => ({
      method: 'SCAN',
      path: 'metadata/a',
      authorize: (check) => {
        checks.push(check);
        return allow;
      },
    });
    expect((await env.handle(request(false))).status).toBe(403);
    expect(dataOf(await env.handle(request(true))).keys).toEqual(['b', 'b/c', 'b/d/e']);
    // The folder, then (once it is granted) every name on its own path, marked as a listing's.
    expect(checks).toEqual([
      { capability: 'scan', path: 'metadata/a/' },
      { capability: 'scan', path: 'metadata/a/' },
      ...['b', 'b/c', 'b/d/e'].map((name) => ({ capability: 'scan', path: `metadata/a/${name}`, listing: true })),
    ]);
  });

  it('SCAN on a path that offers no scan answers 404 with the invalid-path warning, as LIST does', async () => {
    const env = await seeded();
    for (const path of ['data/a', 'config']) {
      const response = await env.handle({ method: 'SCAN', path });
      expect(response.status).toBe(404);
      expect((response.body as { warnings: string[] }).warnings[0]).toContain("'vault kv scan'");
    }
  });
});
