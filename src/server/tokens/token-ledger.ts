// The token store's writes, and the count of live tokens in each quota scope. A scope is what one principal may fill:
// the tokens of one login role, or those made below one token that root created. Its count is a document beside the
// tokens it counts, changed in the same atomic commit as they are, so that every process over one storage sees one
// exact count and a crash changes both or neither. Over a storage without atomic commits, the count moves first when
// a token is created and last when one is removed, each time through a conditional write: concurrent callers still
// see an exact count, and a crash in between can only leave it too high (refusing early), never too low.
import { ROOT_POLICY_NAME } from '../../acl/builtin-policies.js';
import { InternalError, QuotaExceeded } from '../../lib/errors.js';
import { CorruptDocument, encodeJson, unchanged, type JsonStore } from '../../core/store/stored-json.js';
import type { StorageOperation } from '../../ports/storage.js';
import type { TokenRecord } from './token-record.js';

const COUNT_PREFIX = 'sys/token/count/';
const ROLE_SCOPE = 'r.';
const TOKEN_SCOPE = 't.';
/** Conflicting writers in a row before a creation or a removal gives up. */
export const MAX_ATTEMPTS = 64;

export interface QuotaLimits {
  /** Live tokens made below one token root created: its children, theirs, and the orphans they made. */
  maxTokensPerParent: number;
  /** Live tokens of one login role: its logins and every token made below them. */
  maxTokensPerRole: number;
}

/** Every bound on tokens: the ledger's quota scopes, and the store's lifetimes and overall count. */
export interface TokenLimits extends QuotaLimits {
  /** Seconds; for tokens created without a TTL. */
  defaultTtl: number;
  /** Seconds; the ceiling of every token. */
  systemMaxTtl: number;
  /** Live tokens this process lets exist before refusing new ones (but root's) with 429. */
  maxTokens: number;
}

interface Counted {
  key: string;
  raw: Uint8Array | undefined;
  count: number;
}

export class TokenLedger {
  constructor(
    private readonly store: JsonStore,
    private readonly limits: QuotaLimits,
    /** The store's keyed hash, for scope names that reveal nothing of a role. */
    private readonly hash: (kind: string, value: string) => string,
  ) {}

  /**
   * The scope a new token is counted in: its creator's, or its login role's (by the role's id, so that a role deleted
   * and made again starts afresh). None for a token root creates, and for the root token: root is never refused.
   */
  scopeOf(fields: Pick<TokenRecord, 'path' | 'grant'>, creator: TokenRecord | undefined): string | undefined {
    if (creator)
      return creator.policies.includes(ROOT_POLICY_NAME) ? undefined : (creator.quota ?? TOKEN_SCOPE + creator.id);
    if (!fields.grant) return undefined;
    return ROLE_SCOPE + this.hash('role', `${fields.path}\n${String(fields.grant.internal_data.role_id)}`);
  }

  async #counted(scope: string): Promise<Counted> {
    const key = countKey(scope);
    const raw = await this.store.getRaw(key);
    return { key, raw, count: raw === undefined ? 0 : countIn(this.store.decode<unknown>(raw, key), key) };
  }

  /** One more token in the scope, refused with 429 when it is full. */
  #incremented(scope: string, count: number): { count: number } {
    const roles = scope.startsWith(ROLE_SCOPE);
    const limit = roles ? this.limits.maxTokensPerRole : this.limits.maxTokensPerParent;
    if (count >= limit) {
      const what = roles ? 'the tokens of one login role' : 'the tokens made below one token root created';
      throw new QuotaExceeded(
        `token limit reached: ${what} may number at most ${limit} (${roles ? 'maxTokensPerRole' : 'maxTokensPerParent'})`,
      );
    }
    return { count: count + 1 };
  }

  /** Stores a new token's documents (its record last) and counts it in `scope`, when it is counted. */
  async create(
    documents: ReadonlyArray<readonly [key: string, value: unknown]>,
    scope: string | undefined,
  ): Promise<void> {
    if (!this.store.canCommit) {
      if (scope !== undefined)
        await this.store.update<unknown>(countKey(scope), (current) =>
          this.#incremented(scope, current === undefined ? 0 : countIn(current, countKey(scope))),
        );
      for (const [key, value] of documents) await this.store.put(key, value);
      return;
    }
    const puts = documents.map(([key, value]): StorageOperation => ({ type: 'put', key, value: encodeJson(value) }));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const counted = scope === undefined ? [] : [await this.#counted(scope)];
      const counts = counted.map(({ key, raw, count }): StorageOperation => ({
        type: 'put',
        key,
        value: encodeJson(this.#incremented(scope!, count)),
        expected: raw ?? null,
      }));
      if (await this.store.commit([...counts, ...puts])) return;
    }
    throw new InternalError('too many concurrent token creations in one quota scope');
  }

  /**
   * Removes a token's record, provided it still holds `raw`, with `indexes` and its place in `scope`. Answers false,
   * changing nothing, when the record or the count changed meanwhile: read the record again and retry.
   */
  async remove(key: string, raw: Uint8Array, indexes: readonly string[], scope: string | undefined): Promise<boolean> {
    if (!this.store.canCommit) {
      if (!(await this.store.deleteIfUnchanged(key, raw))) return false;
      for (const index of indexes) await this.store.delete(index);
      if (scope !== undefined) {
        await this.store.update<unknown>(countKey(scope), (current) =>
          current === undefined ? unchanged : decremented(countIn(current, countKey(scope))),
        );
      }
      return true;
    }
    const operations: StorageOperation[] = [
      { type: 'delete', key, expected: raw },
      ...indexes.map((index): StorageOperation => ({ type: 'delete', key: index })),
    ];
    if (scope !== undefined) {
      const { key: countKey, raw: countRaw, count } = await this.#counted(scope);
      const next = decremented(count);
      if (countRaw !== undefined)
        operations.push(
          next === undefined
            ? { type: 'delete', key: countKey, expected: countRaw }
            : { type: 'put', key: countKey, value: encodeJson(next), expected: countRaw },
        );
    }
    return this.store.commit(operations);
  }
}

const countKey = (scope: string): string => COUNT_PREFIX + scope;

/** The count after one removal; the document goes with the last token of its scope. */
const decremented = (count: number): { count: number } | undefined => (count > 1 ? { count: count - 1 } : undefined);

function countIn(document: unknown, key: string): number {
  const count = (document as { count?: unknown } | null)?.count;
  if (!Number.isSafeInteger(count) || (count as number) < 0)
    throw new CorruptDocument(`stored token count ${JSON.stringify(key)} is corrupt`);
  return count as number;
}
