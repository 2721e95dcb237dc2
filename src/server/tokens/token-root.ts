// The root token: the one configured, or one made by the first start over a storage and printed once; changing the
// configured one rotates it. The token store lends this its private means of storing and reading entries.
import { ROOT_POLICY_NAME } from '../../acl/builtin-policies.js';
import { unchanged, type JsonStore } from '../../core/store/stored-json.js';
import type { Clock } from '../../ports/clock.js';
import type { NewTokenFields, TokenRecord } from './token-record.js';

// Set once a root token was made or given: a start without a token makes one only when it is absent.
const ROOT_MADE = 'sys/token/root-generated';
// The id of the root token the last start made or was given; any other such token is retired.
const ROOT_CURRENT = 'sys/token/root-current';

/** What the root token holds: every right, forever. */
export const rootFields = (): NewTokenFields => ({
  policies: [ROOT_POLICY_NAME],
  meta: null,
  displayName: 'root',
  path: 'auth/token/root',
  ttl: 0,
  explicitMaxTtl: 0,
  period: 0,
  numUses: 0,
  renewable: false,
  boundCidrs: [],
});

export interface RootTokenEntries {
  /** The stored entry of a token, valid or not (a retired root token included). */
  entryOf(token: string): Promise<TokenRecord | undefined>;
  /** Stores `token` (a new one when undefined) as a root token. */
  create(token: string | undefined): Promise<{ token: string; record: TokenRecord }>;
  /** Marks the entry `id` retired, or (undefined) no longer. */
  setRetired(id: string, retired: true | undefined): Promise<void>;
  revoke(record: TokenRecord): Promise<number>;
}

export class RootToken {
  constructor(
    private readonly store: JsonStore,
    private readonly clock: Clock,
    private readonly entries: RootTokenEntries,
  ) {}

  /**
   * A root token that never expires: `token` when given (stored unless it is already), else a new one the first time
   * any process over this storage starts, answered so that it can be printed once; later starts answer undefined.
   */
  async ensure(token: string | undefined): Promise<string | undefined> {
    if (token !== undefined) {
      const existing = await this.entries.entryOf(token);
      const id = existing?.id ?? (await this.entries.create(token)).record.id;
      // The configuration decides which root token works: a process that starts with a token retired earlier (a
      // rollback, or an old process restarting during a rolling rotation) makes it current again. Otherwise both
      // tokens would end up retired and no root token would work until the next rotation.
      if (existing?.retired) await this.entries.setRetired(id, undefined);
      await this.#retireOthers(id);
      // A later start without a token keeps this one rather than making (and printing) another.
      await this.#made();
      return undefined;
    }
    if ((await this.store.getRaw(ROOT_MADE)) !== undefined) return undefined;
    const made = await this.entries.create(undefined);
    if (await this.#made()) {
      await this.#retireOthers(made.record.id);
      return made.token;
    }
    // Another process made the first root token meanwhile: this one is not needed.
    await this.entries.revoke(made.record);
    return undefined;
  }

  /** Records that a root token exists; answers whether this call was the first to. */
  async #made(): Promise<boolean> {
    return (
      await this.store.update(ROOT_MADE, (current) =>
        current === undefined ? { at: this.clock.now().getTime() } : unchanged,
      )
    ).written;
  }

  /**
   * Changing the configured root token rotates it: the root token an earlier start made or was given stops working.
   * It is retired rather than revoked, because revoking would end every token it created, the services' included.
   */
  async #retireOthers(id: string): Promise<void> {
    const previous = await this.store.get<{ id?: unknown }>(ROOT_CURRENT);
    if (previous?.id === id) return;
    // The old one first: a crash in between leaves the pointer on it, and the next start retires it again.
    if (typeof previous?.id === 'string') await this.entries.setRetired(previous.id, true);
    await this.store.put(ROOT_CURRENT, { id });
  }
}
