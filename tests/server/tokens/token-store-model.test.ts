// The token store against a model, step by step (fast-check commands, seeded): random mints (children, orphans,
// logins), uses of use-limited tokens, revocations, the clock moving on, and sweeps. After every step the store and the
// model agree on which tokens are valid, on what is refused and why, and on what storage holds under sys/token/: a
// record per live token with its accessor and parent links and no other, and a count per quota scope equal to the
// records it counts. Run over a storage with atomic commits and over one with conditional writes only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clocks.js';
import { QuotaExceeded } from '../../../src/lib/errors.js';
import type { AuthGrant } from '../../../src/core/framework/request.js';
import { JsonStore } from '../../../src/core/store/stored-json.js';
import type { Storage } from '../../../src/ports/storage.js';
import type { NewTokenFields, TokenRecord } from '../../../src/server/tokens/token-record.js';
import { TokenStore } from '../../../src/server/tokens/token-store.js';
import { withoutCommit } from '../../support/faulty-storage.js';
import { testStorage } from '../../support/test-storage.js';

const LIMITS = { defaultTtl: 600, systemMaxTtl: 3600, maxTokens: 7, maxTokensPerParent: 4, maxTokensPerRole: 3 };
const ROOT = 'sr.model-root';

interface Entry {
  token: string;
  id: string;
  parent?: Entry;
  /** The model's name of the scope it is counted in; undefined when exempt (made by root). */
  scope?: string;
  /** The scope of the tokens made below it. */
  below: string;
  expiresAt: number;
  uses: number;
  present: boolean;
}

interface Model {
  entries: Entry[];
  root: Entry;
  now: number;
  live: number;
}

interface Real {
  tokens: TokenStore;
  store: JsonStore;
  clock: ManualClock;
  /** The store's scope names by the model's, learned as records appear. */
  scopes: Map<string, string>;
}

const expired = (entry: Entry, now: number) => entry.expiresAt !== 0 && entry.expiresAt <= now;
const valid = (entry: Entry, now: number): boolean =>
  entry.present && !expired(entry, now) && (entry.parent === undefined || valid(entry.parent, now));
const subtree = (model: Model, top: Entry): Entry[] => [
  top,
  ...model.entries.filter((entry) => entry.parent === top).flatMap((child) => subtree(model, child)),
];
const pick = (model: Model, index: number, filter: (entry: Entry) => boolean = () => true) => {
  const candidates = model.entries.filter(filter);
  return candidates.length === 0 ? undefined : candidates[index % candidates.length];
};

/** Removes a subtree from the model as a revocation does; answers how many records went. */
function revokeInModel(model: Model, top: Entry): number {
  const gone = subtree(model, top).filter((entry) => entry.present);
  for (const entry of gone) entry.present = false;
  model.live = Math.max(0, model.live - gone.length);
  return gone.length;
}

function grant(role: string): AuthGrant {
  return {
    policies: ['app'],
    metadata: {},
    alias: { name: role, metadata: {} },
    ttl: 0,
    max_ttl: 0,
    period: 0,
    explicit_max_ttl: 0,
    num_uses: 0,
    no_default_policy: false,
    token_type: 'service',
    bound_cidrs: [],
    renewable: true,
    internal_data: { auth_type: 'iam', role_id: role },
  };
}

const fieldsOf = (uses: number, role?: string): NewTokenFields => ({
  policies: ['app'],
  meta: null,
  displayName: 'model',
  path: role ? 'auth/cloud/login' : 'auth/token/create',
  ttl: 0,
  explicitMaxTtl: 0,
  period: 0,
  numUses: uses,
  renewable: true,
  boundCidrs: [],
  ...(role ? { grant: grant(role) } : {}),
});

type MintKind = 'child' | 'orphan' | 'login';

/** A step: applied to the model and the store alike, then checked. */
abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(_model: Readonly<Model>): boolean {
    return true;
  }
  abstract apply(model: Model, real: Real): Promise<void>;
  async run(model: Model, real: Real): Promise<void> {
    await this.apply(model, real);
    await agree(model, real);
  }
}

class Mint extends Step {
  constructor(
    readonly kind: MintKind,
    readonly creatorIndex: number,
    readonly ttl: number,
    readonly uses: number,
    readonly role: string,
  ) {
    super();
  }
  override async apply(model: Model, real: Real) {
    const creator =
      this.kind === 'login' ? undefined : pick(model, this.creatorIndex, (entry) => valid(entry, model.now));
    const scope = this.kind === 'login' ? `role ${this.role}` : creator === model.root ? undefined : creator!.below;
    const limit = scope?.startsWith('role') ? LIMITS.maxTokensPerRole : LIMITS.maxTokensPerParent;
    const refused =
      scope !== undefined &&
      (model.live >= LIMITS.maxTokens ||
        model.entries.filter((entry) => entry.present && entry.scope === scope).length >= limit);
    const creatorRecord = creator && (await real.tokens.find(creator.token));
    const minting = real.tokens.mint(
      fieldsOf(this.uses, this.kind === 'login' ? this.role : undefined),
      this.ttl,
      creatorRecord ? { creator: creatorRecord, child: this.kind === 'child' } : undefined,
    );
    if (refused) return void (await expect(minting).rejects.toBeInstanceOf(QuotaExceeded));
    const { token, record } = await minting;
    const parent = this.kind === 'child' ? creator : undefined;
    const asked = this.ttl === 0 ? 0 : model.now + this.ttl * 1000;
    const capped = parent && parent.expiresAt !== 0 && (asked === 0 || asked > parent.expiresAt);
    const entry: Entry = {
      token,
      id: record.id,
      ...(parent ? { parent } : {}),
      ...(scope ? { scope } : {}),
      below: scope ?? `made by root: ${token}`,
      expiresAt: capped ? parent.expiresAt : asked,
      uses: this.uses,
      present: true,
    };
    expect(record.expiresAt).toBe(entry.expiresAt);
    model.entries.push(entry);
    model.live += 1;
  }
  override toString() {
    return `mint(${this.kind}, ${this.creatorIndex}, ttl ${this.ttl}, uses ${this.uses}, role ${this.role})`;
  }
}

class Use extends Step {
  constructor(readonly index: number) {
    super();
  }
  override async apply(model: Model, real: Real) {
    const entry = pick(model, this.index)!;
    const used = await real.tokens.use(entry.token, '127.0.0.1');
    expect(used !== undefined, 'use accepted').toBe(valid(entry, model.now));
    if (!used || entry.uses === 0) return;
    entry.uses -= 1;
    if (entry.uses === 0) revokeInModel(model, entry);
  }
  override toString() {
    return `use(${this.index})`;
  }
}

class Revoke extends Step {
  constructor(readonly index: number) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.entries.length > 1;
  }
  override async apply(model: Model, real: Real) {
    const entry = pick(model, this.index, (candidate) => candidate !== model.root)!;
    const removed = await real.tokens.revoke({ id: entry.id });
    expect(removed).toBe(revokeInModel(model, entry));
  }
  override toString() {
    return `revoke(${this.index})`;
  }
}

class Advance extends Step {
  constructor(readonly seconds: number) {
    super();
  }
  override async apply(model: Model, real: Real) {
    model.now += this.seconds * 1000;
    real.clock.advance(this.seconds);
  }
  override toString() {
    return `advance(${this.seconds})`;
  }
}

class Sweep extends Step {
  override async apply(model: Model, real: Real) {
    await real.tokens.sweep();
    for (const entry of model.entries) if (entry.present && expired(entry, model.now)) revokeInModel(model, entry);
    model.live = model.entries.filter((entry) => entry.present).length;
  }
  override toString() {
    return 'sweep';
  }
}

/** Every document under sys/token/, by key. */
async function documents(store: JsonStore): Promise<Map<string, any>> {
  const found = new Map<string, unknown>();
  for await (const key of store.keysBelow('sys/token/')) found.set(key, await store.get(`sys/token/${key}`));
  return found;
}

async function agree(model: Model, real: Real): Promise<void> {
  for (const entry of model.entries)
    expect(await real.tokens.find(entry.token), `validity of ${entry.token}`).toEqual(
      valid(entry, model.now) ? expect.anything() : undefined,
    );
  const stored = await documents(real.store);
  const present = model.entries.filter((entry) => entry.present);
  const records = new Map<string, TokenRecord>(present.map((entry) => [entry.id, stored.get(`id/${entry.id}`)]));
  const expected = new Set(['root-current', 'root-generated', ...present.map((entry) => `id/${entry.id}`)]);
  for (const entry of present) {
    const record = records.get(entry.id)!;
    expect(record, `record of ${entry.token}`).toBeDefined();
    expect(record.parent).toBe(entry.parent?.id);
    const accessor = [...stored].find(([key, value]) => key.startsWith('accessor/') && value.id === entry.id);
    expect(accessor, `accessor of ${entry.token}`).toBeDefined();
    expected.add(accessor![0]);
    if (entry.parent) expected.add(`parent/${entry.parent.id}/${entry.id}`);
    if (entry.scope === undefined) {
      expect(record.quota).toBeUndefined();
      continue;
    }
    // One store scope per model scope, and back.
    const known = real.scopes.get(entry.scope) ?? record.quota!;
    expect(record.quota).toBe(known);
    real.scopes.set(entry.scope, known);
    expected.add(`count/${known}`);
    expect(stored.get(`count/${known}`)).toEqual({
      count: present.filter((other) => other.scope === entry.scope).length,
    });
  }
  expect(new Set(real.scopes.values()).size).toBe(real.scopes.size);
  expect([...stored.keys()].sort()).toEqual([...expected].sort());
}

const mint = fc
  .tuple(
    fc.constantFrom<MintKind>('child', 'child', 'orphan', 'login'),
    fc.nat(20),
    fc.constantFrom(0, 0, 30, 90, 300),
    fc.constantFrom(0, 0, 1, 2),
    fc.constantFrom('a', 'b'),
  )
  .map(([kind, creator, ttl, uses, role]) => new Mint(kind, creator, ttl, uses, role));
// Mints weigh most, so that scopes and the live bound fill up between revocations and sweeps.
const commands = fc.commands(
  [
    mint,
    mint,
    mint,
    fc.nat(20).map((index) => new Use(index)),
    fc.nat(20).map((index) => new Revoke(index)),
    fc.integer({ min: 1, max: 120 }).map((seconds) => new Advance(seconds)),
    fc.constant(new Sweep()),
  ],
  { maxCommands: 60, size: 'max' },
);

/** A storage whose commit also refuses an operation the Storage port does not define (another storage may not take it). */
function strict(): Storage {
  const inner = testStorage();
  return {
    ...withoutCommit(inner),
    compareAndDelete: (key, expected) => inner.compareAndDelete(key, expected),
    commit: async (operations) => {
      for (const { type } of operations)
        if (type !== 'put' && type !== 'delete') throw new Error(`no such storage operation: ${JSON.stringify(type)}`);
      return inner.commit(operations);
    },
  };
}

describe.each([
  ['atomic commits', strict],
  ['conditional writes only', () => withoutCommit(testStorage())],
])('the token store over a storage with %s', (_, storage) => {
  it('agrees with the model after every step', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (steps) => {
        const clock = new ManualClock('2026-01-01T00:00:00Z');
        const store = new JsonStore(storage());
        const tokens = new TokenStore(store, clock, Buffer.alloc(32, 7), LIMITS);
        await tokens.ensureRoot(ROOT);
        await tokens.sweep();
        const rootRecord = (await tokens.find(ROOT))!;
        const root: Entry = { token: ROOT, id: rootRecord.id, below: 'root', expiresAt: 0, uses: 0, present: true };
        const model: Model = { entries: [root], root, now: clock.now().getTime(), live: 1 };
        const real: Real = { tokens, store, clock, scopes: new Map() };
        await fc.asyncModelRun(() => ({ model, real }), steps);
      }),
      { seed: 27_2026, numRuns: 25 },
    );
  });
});
