// The subscription registry on its own (src/server/routes/event-subscriptions.ts), over real token and policy stores:
// what it costs to follow a token, and what happens when following it fails.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../src/lib/clocks.js';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { QuotaExceeded } from '../../../src/lib/errors.js';
import { JsonStore } from '../../../src/core/store/stored-json.js';
import { PolicyStore } from '../../../src/server/policies/policy-store.js';
import {
  EventSubscriptions,
  subscriptionLimits,
  type Subscription,
} from '../../../src/server/routes/event-subscriptions.js';
import { TokenStore } from '../../../src/server/tokens/token-store.js';

const PATH = 'sys/events/subscribe/secret';

/** Counts the reads of token entries, runs `onTokenRead` at the next one, and fails every read once told to. */
class WatchedStorage extends MemoryStorage {
  tokenReads = 0;
  failing = false;
  onTokenRead: (() => void) | undefined;
  override async get(key: string) {
    if (this.failing) throw new Error('storage down');
    if (key.startsWith('sys/token/id/')) {
      this.tokenReads += 1;
      this.onTokenRead?.();
      this.onTokenRead = undefined;
    }
    return super.get(key);
  }
}

const subscriptions: Subscription[] = [];
afterEach(() => {
  for (const subscription of subscriptions.splice(0)) subscription.close();
});

async function setup({ recheckMs = 3_600_000, total = 10, perToken = 10 } = {}) {
  const storage = new WatchedStorage();
  const store = new JsonStore(storage);
  const tokens = new TokenStore(store, systemClock, Buffer.alloc(32, 7), {
    defaultTtl: 768 * 3600,
    systemMaxTtl: 768 * 3600,
    maxTokens: 100,
    maxTokensPerParent: 100,
    maxTokensPerRole: 100,
  });
  const policies = new PolicyStore(store);
  await policies.put(
    'watcher',
    `path "${PATH}" { capabilities = ["read"] }\npath "secret/metadata/*" { capabilities = ["read"] }`,
  );
  const registry = new EventSubscriptions({
    tokens,
    policies,
    clock: systemClock,
    limits: { total, perToken, recheckMs },
    path: PATH,
  });
  // By default the server's token lifetime, 768 hours, longer than a Node timer can wait; 0 never expires.
  const mint = (names = ['watcher'], ttl = 768 * 3600) =>
    tokens.mint(
      {
        policies: names,
        meta: null,
        displayName: 'w',
        path: 'auth/token/create',
        ttl,
        explicitMaxTtl: 0,
        period: 0,
        numUses: 0,
        renewable: true,
        boundCidrs: [],
      },
      ttl,
    );
  const first = await mint();
  let ended = 0;
  const reserve = (who = first) => registry.subscribe(who.record, who.token);
  // As the server does, an ended stream closes, and its close gives its place back.
  const open = async (who = first) => {
    const opening = await reserve(who);
    const subscription = opening({
      end: () => {
        ended += 1;
        subscription?.close();
      },
    });
    expect(subscription).toBeDefined();
    subscriptions.push(subscription!);
    return subscription!;
  };
  return { storage, tokens, policies, mint, first, reserve, open, ended: () => ended };
}

describe('following the token of open subscriptions', () => {
  it('looks it up once when it opens, not once per event or per stream', async () => {
    const { storage, open } = await setup();
    const before = storage.tokenReads;
    const first = await open();
    await open();
    expect(storage.tokenReads - before).toBe(1);
    for (let n = 0; n < 1000; n++) expect(first.allows(`secret/metadata/k${n}`)).toBe(true);
    expect(first.allows('secret/data/k')).toBe(false);
    // A token that lives longer than a timer can wait is not looked up again and again.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(storage.tokenReads - before).toBe(1);
  });

  it('folds the lookups asked for while one waits into a single one', async () => {
    const { storage, policies, open } = await setup();
    await open();
    const before = storage.tokenReads;
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        policies.put('watcher', `path "${PATH}" { capabilities = ["read"] }\n# ${n}`),
      ),
    );
    expect(storage.tokenReads - before).toBeGreaterThanOrEqual(1);
    expect(storage.tokenReads - before).toBeLessThanOrEqual(2);
  });

  it('ends the streams, refusing every path, when a lookup fails: nothing could be checked', async () => {
    const { storage, policies, open, ended } = await setup();
    const subscription = await open();
    storage.failing = true;
    await policies.put('watcher', `path "${PATH}" { capabilities = ["read"] }`).catch(() => undefined);
    storage.failing = false;
    expect(ended()).toBe(1);
    expect(subscription.allows('secret/metadata/k')).toBe(false);
  });

  it('stops following a token whose last stream closed during a lookup: no timer is left to keep it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const { storage, policies, open } = await setup();
      const subscription = await open();
      // The recheck interval and the expiry.
      expect(vi.getTimerCount()).toBe(2);
      storage.onTokenRead = () => subscription.close();
      await policies.put('watcher', `path "${PATH}" { capabilities = ["read"] }`);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('looks every token up again each recheck interval', async () => {
    const { storage, open } = await setup({ recheckMs: 50 });
    await open();
    const before = storage.tokenReads;
    await new Promise((resolve) => setTimeout(resolve, 275));
    expect(storage.tokenReads - before).toBeGreaterThanOrEqual(2);
    expect(storage.tokenReads - before).toBeLessThanOrEqual(6);
  });
});

describe('what following a token costs when nothing changes', () => {
  it('is nothing for a token that never expires, or a recheck interval longer than a timer can wait', async () => {
    for (const [recheckMs, ttl] of [
      [3_600_000, 0],
      [2 ** 32, 768 * 3600],
    ] as const) {
      const { storage, mint, open } = await setup({ recheckMs });
      const token = await mint(['watcher'], ttl);
      await open(token);
      const before = storage.tokenReads;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(storage.tokenReads).toBe(before);
    }
  });

  it('is nothing for a policy write the token does not carry', async () => {
    const { storage, policies, open } = await setup();
    await open();
    const before = storage.tokenReads;
    await policies.put('other', 'path "a" { capabilities = ["read"] }');
    expect(storage.tokenReads).toBe(before);
  });
});

describe('the places subscriptions hold', () => {
  it('default to 256 in all and 16 per token, with a recheck every 5 seconds', () => {
    expect(subscriptionLimits({})).toEqual({ total: 256, perToken: 16, recheckMs: 5000 });
    expect(
      subscriptionLimits({ maxEventSubscriptions: 1, maxEventSubscriptionsPerToken: 2, eventRecheckMs: 3 }),
    ).toEqual({ total: 1, perToken: 2, recheckMs: 3 });
  });

  it('are given back after two full recheck intervals when no stream takes them', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { reserve } = await setup({ recheckMs: 1000, perToken: 1 });
      await reserve();
      vi.advanceTimersByTime(1000);
      await expect(reserve()).rejects.toThrow(QuotaExceeded);
      vi.advanceTimersByTime(1000);
      await expect(reserve()).resolves.toBeTypeOf('function');
    } finally {
      vi.useRealTimers();
    }
  });

  it('are given back at once when their token is revoked, taken by a stream or not', async () => {
    const { tokens, mint, first, reserve, open } = await setup({ total: 2 });
    const opener = await reserve();
    await open();
    await tokens.revoke(first.record);
    expect(opener({ end: () => undefined })).toBeUndefined();
    const other = await mint();
    await open(other);
    await open(other);
    await expect(reserve(other)).rejects.toThrow(
      new QuotaExceeded('too many event subscriptions: this server keeps at most 2 open'),
    );
  });

  it('are given back once when a stream closes twice', async () => {
    const { open, reserve } = await setup({ total: 1 });
    const subscription = await open();
    subscription.close();
    subscription.close();
    await open();
    await expect(reserve()).rejects.toThrow(QuotaExceeded);
  });
});
