// The token store's hard parts, through its own methods: the bound on the ancestor chain it walks, what a sweep and a
// revocation clean up after a race or a crash, the quota counts through a crash at every storage call, and its limits.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clocks.js';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { InternalError, QuotaExceeded } from '../../../src/lib/errors.js';
import { JsonStore } from '../../../src/core/store/stored-json.js';
import type { Storage } from '../../../src/ports/storage.js';
import { createServer } from '../../../src/server/index.js';
import { MAX_ATTEMPTS } from '../../../src/server/tokens/token-ledger.js';
import type { NewTokenFields, TokenRecord } from '../../../src/server/tokens/token-record.js';
import type { TokenLimits } from '../../../src/server/tokens/token-ledger.js';
import { MAX_CHAIN, TokenStore } from '../../../src/server/tokens/token-store.js';
import { FaultyStorage, withoutCommit } from '../../support/faulty-storage.js';
import { testStorage } from '../../support/test-storage.js';

const KEY = Buffer.alloc(32, 3);
const LIMITS: TokenLimits = {
  defaultTtl: 600,
  systemMaxTtl: 3600,
  maxTokens: 100,
  maxTokensPerParent: 3,
  maxTokensPerRole: 3,
};
const FIELDS: NewTokenFields = {
  policies: ['app'],
  meta: null,
  displayName: 'unit',
  path: 'auth/token/create',
  ttl: 0,
  explicitMaxTtl: 0,
  period: 0,
  numUses: 0,
  renewable: true,
  boundCidrs: [],
};

async function open(storage: Storage = testStorage(), limits: Partial<TokenLimits> = {}) {
  const store = new JsonStore(storage);
  const tokens = new TokenStore(store, new ManualClock('2026-01-01T00:00:00Z'), KEY, { ...LIMITS, ...limits });
  await tokens.ensureRoot('sr.unit-root');
  const root = (await tokens.find('sr.unit-root'))!;
  return { store, tokens, root };
}

/** Records, by id, and quota counts, by scope, as stored. */
async function stored(store: JsonStore) {
  const records = new Map<string, TokenRecord>();
  for (const id of await store.list('sys/token/id/'))
    records.set(id, (await store.get<TokenRecord>(`sys/token/id/${id}`))!);
  const counts = new Map<string, number>();
  for (const scope of await store.list('sys/token/count/'))
    counts.set(scope, (await store.get<{ count: number }>(`sys/token/count/${scope}`))!.count);
  return { records, counts };
}

describe('the ancestor chain a lookup walks', () => {
  /** A token whose parent links lead through `length` hand-written ancestors (the last pointing at `last`). */
  async function chained(length: number, last?: (ids: string[]) => string) {
    const { store, tokens, root } = await open();
    const { token, record } = await tokens.mint(FIELDS, 0, { creator: root, child: false });
    const ids = Array.from({ length }, (_, index) => `ancestor-${index}`);
    for (const [index, id] of ids.entries()) {
      const parent = index + 1 < length ? ids[index + 1] : last?.(ids);
      await store.put(`sys/token/id/${id}`, { ...record, id, ...(parent ? { parent } : {}) });
    }
    await store.put(`sys/token/id/${record.id}`, { ...record, parent: ids[0] });
    return { tokens, token };
  }

  it(`is followed up to ${MAX_CHAIN} ancestors`, async () => {
    const { tokens, token } = await chained(MAX_CHAIN);
    expect(await tokens.find(token)).toBeDefined();
  });

  it(`ends in refusal past ${MAX_CHAIN}, and on a cycle (a corrupt storage), instead of walking on`, async () => {
    const deep = await chained(MAX_CHAIN + 1);
    expect(await deep.tokens.find(deep.token)).toBeUndefined();
    const cycle = await chained(3, (ids) => ids[0]!);
    expect(await cycle.tokens.find(cycle.token)).toBeUndefined();
  });
});

describe('a chain of tokens', () => {
  it(`may be ${MAX_CHAIN} tokens long below root, and no longer; an orphan starts a chain of its own`, async () => {
    const { tokens, root } = await open(testStorage(), { maxTokens: 2 * MAX_CHAIN, maxTokensPerParent: MAX_CHAIN });
    let { record, token } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
    for (let depth = 2; depth <= MAX_CHAIN; depth++)
      ({ record, token } = await tokens.mint(FIELDS, 0, { creator: record, child: true }));
    expect(record.depth).toBe(MAX_CHAIN);
    expect(await tokens.find(token)).toBeDefined();
    await expect(tokens.mint(FIELDS, 0, { creator: record, child: true })).rejects.toThrow(
      `token chain too deep: a token may have at most ${MAX_CHAIN} ancestors`,
    );
    expect((await tokens.mint(FIELDS, 0, { creator: record, child: false })).record.depth).toBeUndefined();
  });
});

describe('a sweep', () => {
  it('revokes a child whose parent is gone, and keeps one whose parent cannot be read now', async () => {
    const inner = new MemoryStorage();
    let unreadable = '';
    const storage: Storage = {
      ...withoutCommit(inner),
      commit: (operations) => inner.commit(operations),
      get: async (key) => {
        if (key === unreadable) throw new Error('storage hiccup');
        return inner.get(key);
      },
    };
    const { store, tokens, root } = await open(storage);
    const { record: parent } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
    const { record: child } = await tokens.mint(FIELDS, 0, { creator: parent, child: true });
    unreadable = `sys/token/id/${parent.id}`;
    expect(await tokens.sweep()).toBe(0);
    unreadable = '';
    expect((await stored(store)).records.has(child.id)).toBe(true);
    // What a creation racing its parent's revocation leaves: a child under a parent gone.
    await store.delete(`sys/token/id/${parent.id}`);
    expect(await tokens.sweep()).toBe(1);
    const after = await stored(store);
    expect(after.records.has(child.id)).toBe(false);
    expect(after.counts.size).toBe(0);
    expect(await store.list(`sys/token/parent/${parent.id}/`)).toEqual([]);
  });
});

describe('a sweep whose listing missed a parent', () => {
  // A listing need not be a snapshot: a parent it does not show is asked again, and only one known gone ends a child.
  for (const [label, parentGet, kept] of [
    ['kept when the parent is there after all', 'present', true],
    ['kept when the parent cannot be read now', 'failing', true],
    ['revoked when the parent is gone', 'absent', false],
  ] as const) {
    it(`leaves the child ${label}`, async () => {
      const inner = new MemoryStorage();
      let hidden = '';
      const storage: Storage = {
        ...withoutCommit(inner),
        commit: (operations) => inner.commit(operations),
        list: async (prefix) => (await inner.list(prefix)).filter((name) => name !== hidden),
        get: async (key) => {
          if (key === `sys/token/id/${hidden}` && parentGet === 'failing') throw new Error('storage hiccup');
          return inner.get(key);
        },
      };
      const { store, tokens, root } = await open(storage);
      const { record: parent } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
      const { record: child } = await tokens.mint(FIELDS, 0, { creator: parent, child: true });
      hidden = parent.id;
      if (parentGet === 'absent') await inner.delete(`sys/token/id/${parent.id}`);
      await tokens.sweep();
      expect((await inner.get(`sys/token/id/${child.id}`)) !== undefined).toBe(kept);
      hidden = '';
      expect((await store.list('sys/token/count/')).length).toBe(kept ? 1 : 0);
    });
  }
});

describe('a revocation', () => {
  it('removes a link to a child that is gone, and a corrupt child entry', async () => {
    const { store, tokens, root } = await open();
    const { record: parent } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
    await store.put(`sys/token/parent/${parent.id}/never-stored`, {});
    const { record: corrupt } = await tokens.mint(FIELDS, 0, { creator: parent, child: true });
    await store.put(`sys/token/id/${corrupt.id}`, { id: corrupt.id });
    expect(await tokens.revoke(parent)).toBe(2);
    expect([...(await stored(store)).records.keys()]).toEqual([root.id]);
    expect(await store.list('sys/token/parent/')).toEqual([]);
  });
});

describe('quota counts', () => {
  it('refuse with 429 past the limit, and a corrupt count with a 500 that names it', async () => {
    const { store, tokens, root } = await open();
    const { record: top } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
    for (let i = 0; i < LIMITS.maxTokensPerParent; i++)
      await tokens.mint(FIELDS, 60, { creator: top, child: i % 2 === 0 });
    await expect(tokens.mint(FIELDS, 60, { creator: top, child: true })).rejects.toBeInstanceOf(QuotaExceeded);
    const [scope] = await store.list('sys/token/count/');
    for (const corrupt of [{ count: -1 }, { count: 1.5 }, { count: '2' }, {}, null, 3]) {
      await store.put(`sys/token/count/${scope}`, corrupt);
      await expect(tokens.mint(FIELDS, 60, { creator: top, child: true })).rejects.toThrow(
        /stored token count "sys\/token\/count\/t\.[0-9a-f]+" is corrupt/,
      );
    }
    // 0 is a count (none is ever written: the document goes with the last token), not a corrupt one.
    await store.put(`sys/token/count/${scope}`, { count: 0 });
    expect((await tokens.mint(FIELDS, 60, { creator: top, child: true })).record.quota).toBe(scope);
  });

  for (const [label, atomic] of [
    ['with atomic commits', true],
    ['with conditional writes only', false],
  ] as const) {
    it(`do not stop a revocation when the count is gone already, ${label}`, async () => {
      const inner = testStorage();
      const { store, tokens, root } = await open(atomic ? inner : withoutCommit(inner));
      const { record: top } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
      const { record } = await tokens.mint(FIELDS, 60, { creator: top, child: true });
      await store.delete(`sys/token/count/${record.quota}`);
      expect(await tokens.revoke(record)).toBe(1);
      expect(await store.list('sys/token/count/')).toEqual([]);
    });
  }

  // A crash at each storage call of a creation and of a revocation: afterwards the count is exact where the storage
  // commits atomically, and never below the records it counts where it does not.
  for (const [label, atomic] of [
    ['with atomic commits', true],
    ['with conditional writes only', false],
  ] as const) {
    it(`survive a crash at any step of a creation or a revocation, ${label}`, async () => {
      for (let step = 1; ; step++) {
        const inner = new MemoryStorage();
        const faulty = new FaultyStorage(atomic ? inner : withoutCommit(inner));
        const { tokens, root } = await open(faulty);
        const { record: top } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
        const { record: first } = await tokens.mint(FIELDS, 60, { creator: top, child: true });
        faulty.arm(step, { crash: true });
        const done = await (async () => {
          await tokens.mint(FIELDS, 60, { creator: top, child: true });
          await tokens.revoke(first);
        })().then(
          () => true,
          (error: unknown) => {
            expect(error).toBeInstanceOf(InternalError);
            return false;
          },
        );
        // The next process over the same storage.
        const { store, tokens: restarted } = await open(atomic ? inner : withoutCommit(inner));
        const { records, counts } = await stored(store);
        const counted = [...records.values()].filter((record) => record.quota !== undefined).length;
        const [count = 0] = counts.values();
        if (atomic) expect(count, `step ${step}`).toBe(counted);
        else expect(count, `step ${step}`).toBeGreaterThanOrEqual(counted);
        for (let room = LIMITS.maxTokensPerParent - count; room > 0; room--)
          await restarted.mint(FIELDS, 60, { creator: top, child: true });
        await expect(restarted.mint(FIELDS, 60, { creator: top, child: true })).rejects.toBeInstanceOf(QuotaExceeded);
        if (done) return;
      }
    });
  }
});

describe('uses and renewals racing others', () => {
  it('let a token with n uses through n times however many uses arrive at once', async () => {
    const { tokens, root } = await open();
    const { token } = await tokens.mint({ ...FIELDS, numUses: 3 }, 60, { creator: root, child: true });
    const used = await Promise.all(Array.from({ length: 10 }, () => tokens.use(token, '127.0.0.1')));
    expect(used.filter(Boolean)).toHaveLength(3);
    expect(await tokens.find(token)).toBeUndefined();
  });

  it('refuse to renew a token revoked since it was read', async () => {
    const { tokens, root } = await open();
    const { record } = await tokens.mint(FIELDS, 60, { creator: root, child: true });
    await tokens.revoke(record);
    await expect(tokens.renew(record, { increment: 60, ttl: 0, period: 0, maxTtl: 0 })).rejects.toThrow(
      'token was revoked',
    );
  });
});

describe('a change that lands between a read and its write', () => {
  /** A storage that runs `change` right after the first read of `key` (another process acting in between). */
  function racing(atomic: boolean) {
    const inner = testStorage();
    const race = { key: '', change: async () => {} };
    const base: Storage = atomic
      ? {
          ...withoutCommit(inner),
          commit: (operations) => inner.commit(operations),
          compareAndDelete: (key, expected) => inner.compareAndDelete(key, expected),
        }
      : withoutCommit(inner);
    const storage: Storage = {
      ...base,
      get: async (key) => {
        const value = await inner.get(key);
        if (key === race.key) {
          race.key = '';
          await race.change();
        }
        return value;
      },
    };
    return { inner, storage, race };
  }

  it('makes a use refuse a token revoked or used up meanwhile', async () => {
    const { inner, storage, race } = racing(true);
    const { tokens, root } = await open(storage);
    for (const change of ['revoked', 'used up'] as const) {
      const { token, record } = await tokens.mint({ ...FIELDS, numUses: 2 }, 60, { creator: root, child: true });
      const key = `sys/token/id/${record.id}`;
      race.key = key;
      race.change = async () => {
        if (change === 'revoked') await inner.delete(key);
        else await inner.put(key, Buffer.from(JSON.stringify({ ...record, numUses: 0, usedUp: true })));
      };
      expect(await tokens.use(token, '127.0.0.1'), change).toBeUndefined();
    }
  });

  it('keeps a count another process wrote while a revocation found none', async () => {
    const { inner, storage, race } = racing(true);
    const { store, tokens, root } = await open(storage);
    const { record: top } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
    const { record } = await tokens.mint(FIELDS, 60, { creator: top, child: true });
    const countKey = `sys/token/count/${record.quota}`;
    await inner.delete(countKey);
    race.key = countKey;
    race.change = async () => void (await tokens.mint(FIELDS, 60, { creator: top, child: true }));
    expect(await tokens.revoke(record)).toBe(1);
    expect(await store.get(countKey)).toEqual({ count: 1 });
  });

  it('makes a revocation over conditional writes only read the record again, and finish', async () => {
    const { inner, storage, race } = racing(false);
    const { store, tokens, root } = await open(storage);
    const { record } = await tokens.mint(FIELDS, 60, { creator: root, child: true });
    const key = `sys/token/id/${record.id}`;
    race.key = key;
    race.change = async () => inner.put(key, Buffer.from(JSON.stringify({ ...record, lastUse: 'another process' })));
    expect(await tokens.revoke(record)).toBe(1);
    expect(await store.getRaw(key)).toBeUndefined();
  });
});

describe('writes that keep conflicting', () => {
  /** A storage whose next `conflicts` commits find their condition changed. */
  function conflicting() {
    const inner = new MemoryStorage();
    const state = { conflicts: 0 };
    const storage: Storage = {
      ...withoutCommit(inner),
      commit: async (operations) => (state.conflicts-- > 0 ? false : inner.commit(operations)),
    };
    return { storage, state };
  }

  it(`give up after ${MAX_ATTEMPTS} conflicts in a row, creating and revoking, and not before`, async () => {
    const { storage, state } = conflicting();
    const { tokens, root } = await open(storage);
    state.conflicts = MAX_ATTEMPTS - 1;
    const { record } = await tokens.mint(FIELDS, 60, { creator: root, child: true });
    state.conflicts = MAX_ATTEMPTS;
    await expect(tokens.mint(FIELDS, 60, { creator: root, child: true })).rejects.toThrow(
      'too many concurrent token creations in one quota scope',
    );
    state.conflicts = MAX_ATTEMPTS;
    await expect(tokens.revoke(record)).rejects.toThrow('too many concurrent changes of one token to revoke it');
    state.conflicts = MAX_ATTEMPTS - 1;
    expect(await tokens.revoke(record)).toBe(1);
  });
});

describe('the limits', () => {
  it('must be positive integers: a limit of 1 holds one token', async () => {
    for (const name of ['maxTokens', 'maxTokensPerParent', 'maxTokensPerRole'] as const) {
      for (const value of [0, 1.5, -1]) {
        await expect(createServer({ [name]: value, log: () => undefined }).ready()).rejects.toThrow(
          `${name} must be a positive integer, got ${value}`,
        );
      }
    }
    const { tokens, root } = await open(testStorage(), { maxTokensPerParent: 1 });
    const { record: top } = await tokens.mint(FIELDS, 0, { creator: root, child: true });
    await tokens.mint(FIELDS, 60, { creator: top, child: true });
    await expect(tokens.mint(FIELDS, 60, { creator: top, child: false })).rejects.toBeInstanceOf(QuotaExceeded);
  });
});

describe('the root token', () => {
  const start = (storage: Storage, token?: string) =>
    new TokenStore(new JsonStore(storage), new ManualClock(), KEY, LIMITS).ensureRoot(token);
  const works = async (storage: Storage, token: string) =>
    (await new TokenStore(new JsonStore(storage), new ManualClock(), KEY, LIMITS).find(token)) !== undefined;

  it('is made once, by the first start without one, however many start at once', async () => {
    const storage = testStorage();
    const made = await Promise.all([start(storage), start(storage), start(storage)]);
    const printed = made.filter((token) => token !== undefined);
    expect(printed).toHaveLength(1);
    expect(await works(storage, printed[0]!)).toBe(true);
    expect(await start(storage)).toBeUndefined();
    expect((await storage.list('sys/token/id/')).length).toBe(1);
  });

  it('rotates with the configured one, retiring the previous one but not what it made; going back restores it', async () => {
    const storage = testStorage();
    const generated = (await start(storage))!;
    expect(await start(storage, 'sr.first')).toBeUndefined();
    expect([await works(storage, generated), await works(storage, 'sr.first')]).toEqual([false, true]);
    const tokens = new TokenStore(new JsonStore(storage), new ManualClock(), KEY, LIMITS);
    const { token: made } = await tokens.mint(FIELDS, 0, { creator: (await tokens.find('sr.first'))!, child: true });
    await start(storage, 'sr.second');
    expect([await works(storage, 'sr.first'), await works(storage, 'sr.second'), await works(storage, made)]).toEqual([
      false,
      true,
      true,
    ]);
    await start(storage, 'sr.first');
    expect([await works(storage, 'sr.first'), await works(storage, 'sr.second'), await works(storage, made)]).toEqual([
      true,
      false,
      true,
    ]);
    await start(storage, 'sr.first');
    expect(await works(storage, 'sr.first')).toBe(true);
  });

  it('keeps its entry (and accessor) from start to start, and rotates past a previous one revoked meanwhile', async () => {
    const storage = testStorage();
    await start(storage, 'sr.kept');
    const accessor = async () =>
      (await new TokenStore(new JsonStore(storage), new ManualClock(), KEY, LIMITS).find('sr.kept'))!.accessor;
    const first = await accessor();
    await start(storage, 'sr.kept');
    expect(await accessor()).toBe(first);
    const tokens = new TokenStore(new JsonStore(storage), new ManualClock(), KEY, LIMITS);
    await tokens.revoke((await tokens.find('sr.kept'))!);
    await start(storage, 'sr.next');
    expect(await works(storage, 'sr.next')).toBe(true);
  });

  it('given once, stays the root token when later starts give none: none is made and printed', async () => {
    const storage = testStorage();
    expect(await start(storage, 'sr.configured')).toBeUndefined();
    expect(await start(storage)).toBeUndefined();
    expect(await works(storage, 'sr.configured')).toBe(true);
    expect((await storage.list('sys/token/id/')).length).toBe(1);
  });
});
