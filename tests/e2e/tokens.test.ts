// The example server's token store: Vault's lifetime rules for tokens minted from login grants, on a manual clock.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/adapters/clocks.js';
import type { AuthGrant } from '../../src/core/request.js';
import { loadExample } from './harness.js';

const { TokenStore } = await loadExample('server/tokens.mjs');
const { calculateTtl } = await loadExample('server/token-ttl.mjs');

const HOUR = 3600;

function grant(overrides: Partial<AuthGrant> = {}): AuthGrant {
  return {
    policies: ['Web', 'db'],
    metadata: { account_id: '123456789012', auth_type: 'iam' },
    alias: { name: 'role-id', metadata: {} },
    display_name: 'web-user',
    ttl: HOUR,
    max_ttl: 2 * HOUR,
    period: 0,
    explicit_max_ttl: 0,
    num_uses: 0,
    no_default_policy: false,
    token_type: 'default',
    bound_cidrs: [],
    renewable: true,
    internal_data: { role_name: 'web' },
    ...overrides,
  };
}

function setup(options: { maxTtl?: number } = {}) {
  const clock = new ManualClock('2026-03-01T00:00:00Z');
  const store = new TokenStore({ clock, ...options });
  return { clock, store };
}

const origin = { path: 'auth/cloud/login', mountName: 'cloud' };

describe('TokenStore.issue', () => {
  it('mints a random token with the grant policies plus default, and keeps only its digest', () => {
    const { store } = setup();
    const { token, entry, warnings } = store.issue(grant(), origin);
    expect(token).toMatch(/^sr\.[A-Za-z0-9_-]{43}$/);
    expect(store.issue(grant(), origin).token).not.toBe(token);
    expect(entry.policies).toEqual(['db', 'default', 'web']);
    expect(entry.displayName).toBe('cloud-web-user');
    expect(JSON.stringify(entry)).not.toContain(token);
    expect(warnings).toEqual([]);
    expect(store.authView(entry, token)).toMatchObject({
      client_token: token,
      policies: ['db', 'default', 'web'],
      token_policies: ['db', 'default', 'web'],
      metadata: { account_id: '123456789012', auth_type: 'iam' },
      lease_duration: HOUR,
      renewable: true,
      token_type: 'service',
      num_uses: 0,
    });
    expect(store.authView(entry, token)).not.toHaveProperty('internal_data');
  });

  it('leaves out default when the grant says no_default_policy, and never mints a root token', () => {
    const { store } = setup();
    expect(store.issue(grant({ no_default_policy: true }), origin).entry.policies).toEqual(['db', 'web']);
    expect(() => store.issue(grant({ policies: ['Root'] }), origin)).toThrow('auth methods cannot create root tokens');
  });

  it('uses the system default TTL for a grant without one, and caps a TTL above the maximum with a warning', () => {
    const { store } = setup({ maxTtl: 10 * HOUR });
    expect(store.ttlOf(store.issue(grant({ ttl: 0, max_ttl: 0 }), origin).entry)).toBe(10 * HOUR);
    const capped = store.issue(grant({ ttl: 5 * HOUR, max_ttl: 2 * HOUR }), origin);
    expect(store.ttlOf(capped.entry)).toBe(2 * HOUR);
    expect(capped.warnings).toEqual(['TTL of 5h0m0s exceeded the effective max_ttl of 2h0m0s; TTL value is capped accordingly']);
    expect(store.ttlOf(store.issue(grant({ ttl: HOUR, explicit_max_ttl: 600 }), origin).entry)).toBe(600);
  });

  it('makes batch tokens and non-renewable grants non-renewable', () => {
    const { store } = setup();
    expect(store.issue(grant({ token_type: 'batch' }), origin).entry).toMatchObject({ type: 'batch', renewable: false });
    expect(store.issue(grant({ renewable: false }), origin).entry.renewable).toBe(false);
  });
});

describe('TokenStore.use', () => {
  it('accepts a token until the instant it expires', () => {
    const { clock, store } = setup();
    const { token } = store.issue(grant(), origin);
    clock.advance(HOUR - 1);
    expect(store.use(token, '127.0.0.1')).toBeDefined();
    clock.advance(1);
    expect(store.use(token, '127.0.0.1')).toBeUndefined();
    clock.set('2026-01-01T00:00:00Z');
    expect(store.use(token, '127.0.0.1')).toBeUndefined();
  });

  it('counts uses: the last one succeeds, then the token is gone', () => {
    const { store } = setup();
    const { token, entry } = store.issue(grant({ num_uses: 2 }), origin);
    expect(store.use(token, '127.0.0.1')?.numUses).toBe(1);
    expect(store.use(token, '127.0.0.1')?.numUses).toBe(0);
    expect(store.use(token, '127.0.0.1')).toBeUndefined();
    expect(entry.numUses).toBe(0);
  });

  it('refuses unknown, empty and revoked tokens', () => {
    const { store } = setup();
    const { token, entry } = store.issue(grant(), origin);
    expect(store.use(undefined, '127.0.0.1')).toBeUndefined();
    expect(store.use('', '127.0.0.1')).toBeUndefined();
    expect(store.use(`${token}x`, '127.0.0.1')).toBeUndefined();
    store.revoke(entry);
    expect(store.use(token, '127.0.0.1')).toBeUndefined();
  });

  it('honours the grant bound_cidrs', () => {
    const { store } = setup();
    const { token } = store.issue(grant({ bound_cidrs: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8'] }), origin);
    expect(store.use(token, '10.20.30.40')).toBeDefined();
    expect(store.use(token, '192.168.1.7')).toBeDefined();
    expect(store.use(token, 'fd12::1')).toBeDefined();
    expect(store.use(token, '192.168.1.8')).toBeUndefined();
    expect(store.use(token, '127.0.0.1')).toBeUndefined();
    expect(store.use(token, undefined)).toBeUndefined();
  });

  it('root never expires and has no use limit', () => {
    const { clock, store } = setup();
    store.addRoot('root-token');
    clock.advance(100 * 365 * 24 * HOUR);
    const entry = store.use('root-token', undefined);
    expect(entry).toMatchObject({ policies: ['root'], renewable: false });
    expect(store.lookupView(entry, 'root-token')).toMatchObject({ ttl: 0, expire_time: null, policies: ['root'], path: 'auth/token/root' });
  });

  it('sweep forgets expired tokens only', () => {
    const { clock, store } = setup();
    const short = store.issue(grant({ ttl: 60 }), origin);
    const long = store.issue(grant(), origin);
    clock.advance(61);
    store.sweep();
    clock.set('2026-03-01T00:00:00Z');
    expect(store.use(short.token, '127.0.0.1')).toBeUndefined();
    expect(store.use(long.token, '127.0.0.1')).toBeDefined();
  });
});

describe('TokenStore.extend (renewal)', () => {
  it('extends by the renewed grant TTL, never past max_ttl counted from issue', () => {
    const { clock, store } = setup();
    const { token, entry } = store.issue(grant(), origin);
    clock.advance(HOUR - 10);
    expect(store.extend(entry, grant(), 0)).toEqual([]);
    expect(store.ttlOf(entry)).toBe(HOUR);
    clock.advance(HOUR - 10 - 600);
    const warnings = store.extend(entry, grant(), 0);
    expect(store.ttlOf(entry)).toBe(620);
    expect(warnings).toEqual(['TTL of 1h0m0s exceeded the effective max_ttl of 10m20s; TTL value is capped accordingly']);
    clock.advance(620);
    expect(() => store.extend(entry, grant(), 0)).toThrow('past the max TTL, cannot renew');
    expect(store.use(token, '127.0.0.1')).toBeUndefined();
  });

  it('honours an increment and the renewed grant lifetimes', () => {
    const { store } = setup();
    const { entry } = store.issue(grant(), origin);
    store.extend(entry, grant(), 300);
    expect(store.ttlOf(entry)).toBe(300);
    store.extend(entry, grant({ ttl: 120, max_ttl: 4 * HOUR }), 0);
    expect(store.ttlOf(entry)).toBe(120);
  });

  it('renews a periodic token by its period indefinitely, up to explicit_max_ttl', () => {
    const { clock, store } = setup({ maxTtl: 2 * HOUR });
    const periodic = store.issue(grant({ period: 600, ttl: 0, max_ttl: 0 }), origin);
    expect(store.ttlOf(periodic.entry)).toBe(600);
    for (let i = 0; i < 20; i++) {
      clock.advance(500);
      store.extend(periodic.entry, grant({ period: 600 }), 0);
    }
    expect(store.ttlOf(periodic.entry)).toBe(600);

    const bounded = store.issue(grant({ period: 600, explicit_max_ttl: 1000 }), origin);
    clock.advance(500);
    store.extend(bounded.entry, grant({ period: 600 }), 0);
    expect(store.ttlOf(bounded.entry)).toBe(500);
  });
});

describe('calculateTtl', () => {
  const context = { issuedAt: 0, now: 0, defaultTtl: 100, systemMaxTtl: 1000 };
  it('caps a period above the maximum with a warning', () => {
    expect(calculateTtl({ increment: 0, ttl: 0, period: 5000, maxTtl: 0, explicitMaxTtl: 0 }, context)).toEqual({
      ttl: 1000,
      warnings: ['period of 1h23m20s exceeded the effective max_ttl of 16m40s; period value is capped accordingly'],
    });
  });

  it('takes the increment over the TTL over the default', () => {
    expect(calculateTtl({ increment: 7, ttl: 9, period: 0, maxTtl: 0, explicitMaxTtl: 0 }, context).ttl).toBe(7);
    expect(calculateTtl({ increment: 0, ttl: 9, period: 0, maxTtl: 0, explicitMaxTtl: 0 }, context).ttl).toBe(9);
    expect(calculateTtl({ increment: 0, ttl: 0, period: 0, maxTtl: 0, explicitMaxTtl: 0 }, context).ttl).toBe(100);
  });
});
