// Named ACL policies in the configured storage, and the Acl a token's policies add up to. Every process over one
// storage reads the same policies: every use reads them, and only the work of compiling the same bytes again is saved.
// Whoever keeps an Acl for longer than a request (an open event stream) is told of every policy write this process makes.
import { Acl } from '../../acl/acl.js';
import { DEFAULT_POLICY, DEFAULT_POLICY_NAME, ROOT_POLICY_NAME } from '../../acl/builtin-policies.js';
import { parsePolicy, type NamedPolicy } from '../../acl/policy.js';
import { InvalidRequest } from '../../lib/errors.js';
import { compareKeys } from '../../lib/key-order.js';
import type { JsonStore } from '../../core/store/stored-json.js';
import { DecodedMemo, deepFreeze } from '../../lib/decoded-memo.js';
import { RecentMap } from '../../lib/recent-map.js';

const PREFIX = 'sys/policy/';
const MAX_POLICY_NAME = 128;
const MAX_COMPILED = 1000;
/** The root policy's compiled form: one object, so that the Acls of root tokens are one too. */
const ROOT: NamedPolicy = deepFreeze({ name: ROOT_POLICY_NAME, rules: [] });

interface StoredPolicy {
  name: string;
  policy: string;
}

/**
 * A policy name as Vault keeps it: trimmed and lower-cased. Callers use it before any permission check, so that
 * `ADMIN` or ` admin` names the same policy as `admin` for the ACL as well as for storage.
 */
export function canonicalPolicyName(name: string): string {
  const canonical = name.trim().toLowerCase();
  if (canonical === '') throw new InvalidRequest('policy name must not be empty');
  if (canonical.length > MAX_POLICY_NAME)
    throw new InvalidRequest(`policy name must be at most ${MAX_POLICY_NAME} characters`);
  // Control characters and '/' would make names that cannot be written back in a path.
  if (/[\u0000-\u001f\u007f/]/.test(canonical))
    throw new InvalidRequest('policy name holds a character that is not allowed');
  return canonical;
}

function isStoredPolicy(value: unknown): value is StoredPolicy {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as StoredPolicy).name === 'string' &&
    typeof (value as StoredPolicy).policy === 'string'
  );
}

/** Told the canonical name of a policy this process wrote or deleted; the write is answered once it settles. */
export type PolicyChangeListener = (name: string) => Promise<void> | void;

export class PolicyStore {
  readonly #listeners = new Set<PolicyChangeListener>();
  /**
   * Stored policies as last read, compiled: a token's every request reads its policies, and a policy is compiled again
   * only when its stored bytes change.
   */
  readonly #decoded = new DecodedMemo<NamedPolicy | undefined>(MAX_COMPILED);
  /** The Acl last made of each list of policy names, with the compiled policies it was made of. */
  readonly #acls = new RecentMap<string, { policies: readonly NamedPolicy[]; acl: Acl }>(MAX_COMPILED);

  constructor(private readonly store: JsonStore) {}

  /** Stores the default policy unless it is there already (an operator may have edited it). */
  async initialise(): Promise<void> {
    await this.store.update<StoredPolicy>(
      PREFIX + DEFAULT_POLICY_NAME,
      (current) => current ?? { name: DEFAULT_POLICY_NAME, policy: DEFAULT_POLICY },
    );
  }

  /** Every policy name, `root` included (Vault lists root although it cannot be read), sorted. */
  async names(): Promise<string[]> {
    const stored = (await this.store.list(PREFIX)).filter((name) => !name.endsWith('/'));
    return [...new Set([...stored, ROOT_POLICY_NAME])].sort(compareKeys);
  }

  async get(name: string): Promise<StoredPolicy | undefined> {
    const key = PREFIX + canonicalPolicyName(name);
    const stored = await this.store.get<unknown>(key);
    if (stored === undefined) return undefined;
    if (!isStoredPolicy(stored))
      throw new InvalidRequest(`stored policy ${JSON.stringify(key)} is corrupt; write it again`);
    return stored;
  }

  /** Stores a policy after parsing it completely; a policy that does not parse is refused with 400 and changes nothing. */
  async put(name: string, text: unknown): Promise<void> {
    const canonical = canonicalPolicyName(name);
    if (canonical === ROOT_POLICY_NAME) throw new InvalidRequest('cannot update "root" policy');
    if (typeof text !== 'string' || text.trim() === '')
      throw new InvalidRequest("'policy' parameter not supplied or empty");
    parsePolicy(text);
    await this.store.put(PREFIX + canonical, { name: canonical, policy: text } satisfies StoredPolicy);
    await this.#changed(canonical);
  }

  async delete(name: string): Promise<void> {
    const canonical = canonicalPolicyName(name);
    if (canonical === ROOT_POLICY_NAME || canonical === DEFAULT_POLICY_NAME)
      throw new InvalidRequest(`cannot delete "${canonical}" policy`);
    await this.store.delete(PREFIX + canonical);
    await this.#changed(canonical);
  }

  /** Registers a listener of this process's policy writes and deletions. */
  onChange(listener: PolicyChangeListener): void {
    this.#listeners.add(listener);
  }

  async #changed(name: string): Promise<void> {
    await Promise.all([...this.#listeners].map((listener) => listener(name)));
  }

  /** The compiled policies of a token; names of policies that do not exist (any more) grant nothing, as in Vault. */
  async policiesFor(names: readonly string[]): Promise<NamedPolicy[]> {
    const policies = await Promise.all(
      names.map((name) =>
        name === ROOT_POLICY_NAME
          ? ROOT
          : this.store.getMemoized(PREFIX + name, this.#decoded, (stored) => this.#compiledOf(stored)),
      ),
    );
    return policies.filter((policy): policy is NamedPolicy => policy !== undefined);
  }

  /**
   * The Acl of a token's policies. The policies are read every time; the Acl made of the very same compiled policies
   * last time is answered again (an Acl's answers depend on its policies alone), so a write of any makes a new one.
   */
  aclFor(names: readonly string[]): Promise<Acl> {
    return this.policiesFor(names).then((policies) => this.#aclOf(names, policies));
  }

  /** The Acl last made of exactly `policies` under `names`, or a new one. */
  #aclOf(names: readonly string[], policies: NamedPolicy[]): Acl {
    const key = names.join('\n');
    const known = this.#acls.get(key);
    if (known && known.policies.length === policies.length && known.policies.every((one, at) => one === policies[at]))
      return known.acl;
    const acl = new Acl(policies);
    this.#acls.set(key, { policies, acl });
    return acl;
  }

  /** A stored policy's compiled form, or undefined for a document that is not one (it grants nothing). */
  #compiledOf(stored: unknown): NamedPolicy | undefined {
    return isStoredPolicy(stored) ? { name: stored.name, rules: parsePolicy(stored.policy) } : undefined;
  }
}
