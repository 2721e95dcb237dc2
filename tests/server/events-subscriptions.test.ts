// The subscription registry on its own (src/server/event-subscriptions.ts), over real token and policy stores: what it
// costs to follow a token, and what happens when following it fails.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/adapters/clocks.js';
import { MemoryStorage } from '../../src/adapters/memory-storage.js';
import { JsonStore } from '../../src/core/stored-json.js';
import { EventSubscriptions, type Subscription } from '../../src/server/event-subscriptions.js';
import { PolicyStore } from '../../src/server/policy-store.js';
import { TokenStore } from '../../src/server/token-store.js';

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

async function setup({ recheckMs = 3_600_000 } = {}) {
  const storage = new WatchedStorage();
  const store = new JsonStore(storage);
  const tokens = new TokenStore(store, systemClock, Buffer.alloc(32, 7), { defaultTtl: 768 * 3600, systemMaxTtl: 768 * 3600, maxTokens: 100 });
  const policies = new PolicyStore(store);
  await policies.put('watcher', `path "${PATH}" { capabilities = ["read"] }\npath "secret/metadata/*" { capabilities = ["read"] }`);
  const registry = new EventSubscriptions({ tokens, policies, clock: systemClock, limits: { total: 10, perToken: 10, recheckMs }, path: PATH });
  // The server's default token lifetime, 768 hours, is longer than a Node timer can wait.
  const { token, record } = await tokens.mint({ policies: ['watcher'], meta: null, displayName: 'w', path: 'auth/token/create', ttl: 0, explicitMaxTtl: 0, period: 0, numUses: 0, renewable: true, boundCidrs: [] }, 768 * 3600);
  let ended = 0;
  const open = async () => {
    const subscription = (await registry.subscribe(record, token))({ end: () => void ended++ });
    expect(subscription).toBeDefined();
    subscriptions.push(subscription!);
    return subscription!;
  };
  return { storage, tokens, policies, record, open, ended: () => ended };
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
    await Promise.all(Array.from({ length: 20 }, (_, n) => policies.put('watcher', `path "${PATH}" { capabilities = ["read"] }\n# ${n}`)));
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
