// Named ACL policies, kept in memory, and the Acl a token's policies add up to.
import {
  Acl,
  DEFAULT_POLICY,
  DEFAULT_POLICY_NAME,
  InvalidRequest,
  ROOT_POLICY_NAME,
  parsePolicy,
  sanitizePolicyNames,
} from 'strongroom';

/** @param {unknown} name */
function normaliseName(name) {
  const [normalised] = typeof name === 'string' ? sanitizePolicyNames([name]) : [];
  if (normalised === undefined) throw new InvalidRequest('policy name must not be empty');
  return normalised;
}

export class PolicyStore {
  /** @type {Map<string, { name: string, text: string, rules: import('strongroom').PathRule[] }>} */
  #policies = new Map();
  /** Compiled Acls by policy set, dropped whenever a policy changes. @type {Map<string, Acl>} */
  #acls = new Map();

  constructor() {
    this.put(DEFAULT_POLICY_NAME, DEFAULT_POLICY);
  }

  /** Every policy name, `root` included, sorted (Vault lists root although it cannot be read). */
  names() {
    return [...this.#policies.keys(), ROOT_POLICY_NAME].sort();
  }

  /** @param {string} name */
  has(name) {
    return this.#policies.has(normaliseName(name));
  }

  /** @param {string} name */
  get(name) {
    const policy = this.#policies.get(normaliseName(name));
    return policy && { name: policy.name, text: policy.text };
  }

  /**
   * Stores a policy after parsing it completely; a policy that does not parse is refused with 400 and changes nothing.
   * @param {string} name
   * @param {unknown} text
   */
  put(name, text) {
    const normalised = normaliseName(name);
    if (normalised === ROOT_POLICY_NAME) throw new InvalidRequest('cannot update "root" policy');
    if (typeof text !== 'string' || text.trim() === '') throw new InvalidRequest("'policy' parameter not supplied or empty");
    this.#policies.set(normalised, { name: normalised, text, rules: parsePolicy(text) });
    this.#acls.clear();
  }

  /** @param {string} name */
  delete(name) {
    const normalised = normaliseName(name);
    if (normalised === ROOT_POLICY_NAME || normalised === DEFAULT_POLICY_NAME) {
      throw new InvalidRequest(`cannot delete "${normalised}" policy`);
    }
    this.#policies.delete(normalised);
    this.#acls.clear();
  }

  /**
   * The Acl of a token's policies; names of policies that do not exist (any more) grant nothing, as in Vault.
   * @param {readonly string[]} names
   */
  aclFor(names) {
    const key = names.join('\n');
    let acl = this.#acls.get(key);
    if (!acl) {
      const policies = names.flatMap((name) => {
        if (name === ROOT_POLICY_NAME) return [{ name, rules: [] }];
        const policy = this.#policies.get(name);
        return policy ? [policy] : [];
      });
      acl = new Acl(policies);
      this.#acls.set(key, acl);
    }
    return acl;
  }
}
