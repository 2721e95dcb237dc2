// Whether a token may learn that a mount exists: Vault's rule for sys/internal/ui/mounts (and its UI's listings). A
// token sees a mount when its policies grant anything on the mount's own path, or on some path below it.
import { Acl } from '../../acl/acl.js';
import { DENY, mergeMasks, ruleMask, type CapabilityMask } from '../../acl/capability.js';
import type { NamedPolicy } from '../../acl/policy.js';

// Vault tells a path with segment wildcards by a `+` segment (the evaluator's rule).
const hasSegmentWildcards = (path: string) => path === '+' || path.startsWith('+/') || path.includes('/+');

/** Each rule path of the policies with its merged mask: a deny in any policy wins, as in the evaluator. */
function mergedRules(policies: readonly NamedPolicy[]): Map<string, CapabilityMask> {
  const merged = new Map<string, CapabilityMask>();
  for (const { rules } of policies) {
    const namesScan = rules.some((rule) => rule.capabilities.includes('scan'));
    for (const rule of rules)
      merged.set(rule.path, mergeMasks(merged.get(rule.path), ruleMask(rule.capabilities, namesScan)));
  }
  return merged;
}

/**
 * Whether a `+` rule reaches below the mount: each of the mount's segments is matched by the rule's segment at the
 * same place (`+` matches any; the last segment of a rule ending in `*` matches as a prefix).
 */
function segmentRuleReaches(rulePath: string, mountSegments: readonly string[]): boolean {
  const isPrefix = rulePath.endsWith('*');
  const parts = (isPrefix ? rulePath.slice(0, -1) : rulePath).split('/');
  if (parts.length < mountSegments.length) return false;
  return mountSegments.every((segment, i) => {
    const part = parts[i]!;
    return part === '+' || part === segment || (isPrefix && i === parts.length - 1 && segment.startsWith(part));
  });
}

const grants = (mask: CapabilityMask) => mask !== 0 && (mask & DENY) === 0;

/**
 * `mount` is a mount's full path with its trailing '/' (`secret/`, `auth/aws/`). The mount is open to the token when
 * its policies grant something on the mount's own path; or on a path at or below it (an exact or `*` rule, or a `+` rule
 * whose segments match the mount's); or, through the longest `*` rule covering the mount, on the paths below it. Unlike
 * Vault, a `deny` rule never opens a mount: Vault's last fallback answers yes for the longest covering glob whatever it
 * grants, `deny` included.
 */
export function hasMountAccess(policies: readonly NamedPolicy[], mount: string): boolean {
  if (new Acl(policies).capabilities(mount)[0] !== 'deny') return true;
  const mountSegments = mount.slice(0, -1).split('/');
  let covering: { prefix: string; mask: CapabilityMask } | undefined;
  for (const [path, mask] of mergedRules(policies)) {
    if (hasSegmentWildcards(path)) {
      if (grants(mask) && segmentRuleReaches(path, mountSegments)) return true;
      continue;
    }
    if (path.startsWith(mount) && grants(mask)) return true;
    const prefix = path.endsWith('*') ? path.slice(0, -1) : undefined;
    if (prefix !== undefined && mount.startsWith(prefix) && prefix.length >= (covering?.prefix.length ?? 0))
      covering = { prefix, mask };
  }
  return covering !== undefined && grants(covering.mask);
}
