// The rule of which names a listing shows, stated apart from `Acl.shows`, for the properties that hold the Acl and the
// KV listings to it. Each question is put to `allows` of an Acl over rules rewritten for it:
// - a key is shown unless the rule that decides its path is a deny: `allows('list')` over the same rules with each
//   deny turned into a `list` grant and every other rule into a grant of nothing;
// - a sub-folder is shown when `allows` grants the listing's capability on it, or when no deny is among the rules
//   matching it (with and without its slash). Over the same rules, but without the exact rules that neither grant that
//   capability nor deny: such a rule decides a LIST of the folder, yet says nothing of the names below it.
import { Acl, type NamedPolicy, type PathRule } from '../../src/acl/index.js';

export type ListingCapability = 'list' | 'scan';

/** An Acl over the rules `rewrite` leaves of each policy (`undefined`: the rule is dropped). */
function rewritten(
  policies: readonly NamedPolicy[],
  rewrite: (rule: PathRule, policy: NamedPolicy) => PathRule | undefined,
): Acl {
  return new Acl(
    policies.map((policy) => ({
      name: policy.name,
      rules: policy.rules.flatMap((rule) => rewrite(rule, policy) ?? []),
    })),
  );
}

const denies = (rule: PathRule) => rule.capabilities.includes('deny');
const asDenyGrant = (rule: PathRule): PathRule => ({ path: rule.path, capabilities: denies(rule) ? ['list'] : [] });

/** A rule naming one path: no `*` at its end and no `+` segment. */
function isExact({ path }: PathRule): boolean {
  const bare = path.replace(/^\//, '');
  return !bare.endsWith('*') && bare !== '+' && !bare.startsWith('+/') && !bare.includes('/+');
}

/** Whether a rule grants `capability`; a policy that never names scan grants it with list. */
function grantsListing(rule: PathRule, policy: NamedPolicy, capability: ListingCapability): boolean {
  if (rule.capabilities.includes(capability)) return true;
  return (
    capability === 'scan' &&
    rule.capabilities.includes('list') &&
    !policy.rules.some((one) => one.capabilities.includes('scan'))
  );
}

export function listingModel(
  policies: readonly NamedPolicy[],
): (capability: ListingCapability, path: string) => boolean {
  const keyDenies = rewritten(policies, asDenyGrant);
  const folders = new Map<ListingCapability, { grants: Acl; denies: Acl }>();
  const foldersFor = (capability: ListingCapability) => {
    const keep = (rule: PathRule, policy: NamedPolicy) =>
      !isExact(rule) || denies(rule) || grantsListing(rule, policy, capability);
    const made = {
      grants: rewritten(policies, (rule, policy) => (keep(rule, policy) ? rule : undefined)),
      denies: rewritten(policies, (rule, policy) => (keep(rule, policy) ? asDenyGrant(rule) : undefined)),
    };
    folders.set(capability, made);
    return made;
  };
  return (capability, path) => {
    if (!path.endsWith('/')) return !keyDenies.allows('list', path);
    const { grants, denies: folderDenies } = folders.get(capability) ?? foldersFor(capability);
    return grants.allows(capability, path) || !folderDenies.allows('list', path);
  };
}
