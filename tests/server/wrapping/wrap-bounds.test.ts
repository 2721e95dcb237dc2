// A policy's min_wrapping_ttl and max_wrapping_ttl, as the dispatcher enforces them: Vault's rule as a table, then the
// dispatcher handed a fake of the bounds function the ACL will answer, so that a granted request is refused (403) when
// its wrap TTL is outside the bounds, and never wrapped.
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/index.js';
import { JsonStore } from '../../../src/core/store/stored-json.js';
import { KvEngine } from '../../../src/kv/index.js';
import { systemClock } from '../../../src/lib/clocks.js';
import { AuditLog } from '../../../src/server/dispatch/audit.js';
import { createDispatcher } from '../../../src/server/dispatch/dispatch.js';
import type { ApiRequest } from '../../../src/server/http/request.js';
import { PolicyStore } from '../../../src/server/policies/policy-store.js';
import { planToken } from '../../../src/server/tokens/token-create.js';
import { TokenStore } from '../../../src/server/tokens/token-store.js';
import {
  withinWrappingBounds,
  wrapTtlOf,
  type WrappingBounds,
  type WrappingBoundsOf,
} from '../../../src/server/wrapping/wrap-ttl.js';
import { WrappedResponses } from '../../../src/server/wrapping/wrapped-responses.js';

describe('withinWrappingBounds', () => {
  it.each<[WrappingBounds, number, boolean]>([
    [{}, 0, true],
    [{}, 60, true],
    [{ max: 60 }, 0, false],
    [{ max: 60 }, 60, true],
    [{ max: 60 }, 61, false],
    [{ min: 30 }, 0, false],
    [{ min: 30 }, 29, false],
    [{ min: 30 }, 30, true],
    [{ min: 30, max: 60 }, 45, true],
    [{ min: 60, max: 30 }, 45, false],
    [{ min: 0, max: 0 }, 0, true],
  ])('%j with a wrap TTL of %i: %s', (bounds, ttl, expected) => {
    expect(withinWrappingBounds(bounds, ttl)).toBe(expected);
  });
});

describe('wrapTtlOf', () => {
  it('reads seconds and durations; none, empty and 0 ask for no wrapping; the rest is a 400', () => {
    const of = (value?: string | string[]) => wrapTtlOf({ headers: { 'x-vault-wrap-ttl': value } });
    expect([of(), of(''), of('0'), of('90'), of('15m'), of('1h30m')]).toEqual([0, 0, 0, 90, 900, 5400]);
    expect(() => of('-1')).toThrow('requested wrap ttl cannot be negative');
    expect(() => of('soon')).toThrow(/X-Vault-Wrap-TTL/);
    expect(() => of(['1m', '2m'])).toThrow(/X-Vault-Wrap-TTL/);
  });
});

describe('the dispatcher with bounds from the policies', () => {
  async function setUp(bounds: WrappingBoundsOf) {
    const store = new JsonStore(new MemoryStorage());
    const tokens = new TokenStore(store, systemClock, Buffer.alloc(32, 1), {
      defaultTtl: 3600,
      systemMaxTtl: 3600,
      maxTokens: 100,
      maxTokensPerParent: 100,
      maxTokensPerRole: 100,
    });
    const policies = new PolicyStore(store);
    await policies.initialise();
    await policies.put('reader', 'path "secret/data/*" { capabilities = ["read", "create", "update"] }');
    // A token holding `reader`, made by root as auth/token/create makes it.
    await tokens.ensureRoot('sr.bounds-root');
    const parent = (await tokens.find('sr.bounds-root'))!;
    const plan = planToken(
      { policies: ['reader'] },
      { parent, orphan: false, sudo: true, ttlFor: (wanted) => tokens.ttlFor(wanted) },
    );
    const { token } = await tokens.mint(plan.fields, plan.ttl, { creator: parent, child: plan.child });
    const kv = new KvEngine({ storage: store.storage, storagePrefix: 'secret/' });
    const dispatch = createDispatcher({
      mounts: [{ prefix: 'secret/', type: 'kv', description: '', engine: kv }],
      routes: [],
      tokens,
      policies,
      audit: new AuditLog(Buffer.alloc(32, 2), undefined),
      clock: systemClock,
      wrapping: new WrappedResponses(store, tokens, systemClock),
      wrappingBounds: bounds,
    });
    const send = (who: string, method: ApiRequest['method'], path: string, wrap?: string, body?: unknown) =>
      dispatch(
        {
          method,
          path,
          query: {},
          body,
          headers: wrap === undefined ? {} : { 'x-vault-wrap-ttl': wrap },
          token: who,
          remoteAddress: '127.0.0.1',
          remotePort: 1,
        },
        'request-id',
      );
    return { send, token };
  }

  it('refuses a granted request outside the bounds with 403 and wraps the one within them', async () => {
    const asked: string[] = [];
    const { send, token } = await setUp((_acl, path) => {
      asked.push(path);
      return path.startsWith('secret/data/wrapped/') ? { min: 60, max: 600 } : {};
    });
    const write = await send(token, 'POST', 'secret/data/wrapped/a', undefined, { data: { k: 'v' } });
    expect(write.result.status).toBe(403);
    for (const ttl of ['30', '601']) {
      const outside = await send(token, 'GET', 'secret/data/wrapped/a', ttl);
      expect([outside.result.status, outside.result.body]).toEqual([403, { errors: ['permission denied'] }]);
    }
    expect((await send(token, 'GET', 'secret/data/wrapped/a')).result.status).toBe(403);
    // Within the bounds the request is granted (the key does not exist: a 404, which is never wrapped).
    const within = await send(token, 'GET', 'secret/data/wrapped/a', '5m');
    expect(within.result.status).toBe(404);
    expect(asked).toContain('secret/data/wrapped/a');
    // Elsewhere nothing is bounded: a write goes through, and a read asked to be wrapped is.
    expect((await send(token, 'POST', 'secret/data/free/a', undefined, { data: { k: 'v' } })).result.status).toBe(200);
    const wrapped = await send(token, 'GET', 'secret/data/free/a', '30');
    expect((wrapped.result.body as { wrap_info: { ttl: number } }).wrap_info.ttl).toBe(30);
  });

  it('answers a refusal the ACL gives before any bounds are asked', async () => {
    const asked: string[] = [];
    const { send, token } = await setUp((_acl, path) => {
      asked.push(path);
      return {};
    });
    expect((await send(token, 'DELETE', 'secret/metadata/x', '1m')).result.status).toBe(403);
    expect(asked).toEqual([]);
  });
});
