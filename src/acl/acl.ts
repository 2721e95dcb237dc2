import type { BulkAuthorizer, CapabilityCheck } from '../core/request.js';
import {
  bitOf,
  capabilitiesOf,
  mergeMasks,
  ruleMask,
  SCAN_BY_LIST,
  type CapabilityMask,
  type PolicyCapability,
  type RequiredCapability,
} from './capability.js';
import { ROOT_POLICY_NAME } from './builtin-policies.js';
import type { NamedPolicy } from './policy.js';

/** A rule path with `+` segments, described the way Vault ranks competing matches. */
interface SegmentRule {
  segments: string[];
  /** Ends in `*`: the last segment matches as a prefix, and any further segments are allowed. */
  isPrefix: boolean;
  /** Position of the first `+`: a later wildcard means a longer literal prefix, which ranks higher. */
  firstWildcard: number;
  wildcards: number;
  /** The path without its trailing `*`. */
  literal: string;
  mask: CapabilityMask;
}

/** A match of a non-exact rule; a plain `*` rule is a segment rule with no `+` and its glob at its end. */
type Candidate = Pick<SegmentRule, 'isPrefix' | 'firstWildcard' | 'wildcards' | 'literal' | 'mask'>;

/** The non-exact rules that matter below one folder, in the evaluator's order. */
interface Narrowed {
  readonly prefixOrder: readonly string[];
  readonly segmentRules: readonly SegmentRule[];
}

// Vault treats a path as having segment wildcards when it is "+", starts with "+/" or contains "/+".
function hasSegmentWildcards(path: string): boolean {
  return path === '+' || path.startsWith('+/') || path.includes('/+');
}

/** Positive when `a` ranks above `b` (Vault's order for several non-exact matches). */
function compareCandidates(a: Candidate, b: Candidate): number {
  if (a.firstWildcard !== b.firstWildcard) return a.firstWildcard - b.firstWildcard;
  if (a.isPrefix !== b.isPrefix) return a.isPrefix ? -1 : 1;
  if (a.wildcards !== b.wildcards) return b.wildcards - a.wildcards;
  if (a.literal.length !== b.literal.length) return a.literal.length - b.literal.length;
  return a.literal < b.literal ? -1 : a.literal > b.literal ? 1 : 0;
}

function matchesSegments(rule: SegmentRule, parts: readonly string[]): boolean {
  const { segments, isPrefix } = rule;
  if (parts.length < segments.length || (!isPrefix && parts.length !== segments.length)) return false;
  return segments.every((segment, i) => {
    if (segment === '+' || segment === parts[i]) return true;
    return isPrefix && i === segments.length - 1 && parts[i]!.startsWith(segment);
  });
}

/**
 * An access control list compiled from ACL policies, evaluated exactly like Vault's:
 * - an exact path rule wins over every glob; for a LIST the path is also tried without its trailing '/';
 * - otherwise, of the `*` (prefix) and `+` (one segment) rules that match, the most specific wins: the one whose first
 *   wildcard comes latest, then a non-prefix rule over a prefix rule, then fewer `+` segments, then the longer path;
 * - rules of several policies for the same path merge: their capabilities add up, and a `deny` in any of them wins;
 * - the `root` policy allows everything.
 */
export class Acl {
  readonly isRoot: boolean;
  private readonly exact = new Map<string, CapabilityMask>();
  private readonly prefixes = new Map<string, CapabilityMask>();
  private readonly segmentMasks = new Map<string, CapabilityMask>();
  /** Prefix rules, longest first, so the first match is Vault's longest-prefix match. */
  private readonly prefixOrder: string[];
  private readonly segmentRules: SegmentRule[];
  private readonly allRules: Narrowed;

  constructor(policies: Iterable<NamedPolicy>) {
    let isRoot = false;
    for (const policy of policies) {
      if (policy.name === ROOT_POLICY_NAME) isRoot = true;
      const namesScan = policy.rules.some((rule) => rule.capabilities.includes('scan'));
      for (const rule of policy.rules) this.add(rule.path, ruleMask(rule.capabilities, namesScan));
    }
    this.isRoot = isRoot;
    this.prefixOrder = [...this.prefixes.keys()].sort((a, b) => b.length - a.length);
    this.segmentRules = [...this.segmentMasks].map(([path, mask]) => describeSegmentRule(path, mask));
    this.allRules = { prefixOrder: this.prefixOrder, segmentRules: this.segmentRules };
  }

  /** Whether the policies grant `capability` on `path` (a full path such as `secret/data/app`, no leading '/'). */
  allows(capability: RequiredCapability, path: string): boolean {
    if (this.isRoot) return true;
    const wanted = capability === 'scan' ? bitOf('scan') | SCAN_BY_LIST : bitOf(capability);
    return (this.maskFor(path, capability === 'list' || capability === 'scan') & wanted) !== 0;
  }

  /**
   * The capabilities on `path`, as Vault's `sys/capabilities` reports them: `['root']` for the root policy,
   * `['deny']` when denied or when nothing is granted. Like Vault, the lookup uses the LIST fallbacks.
   */
  capabilities(path: string): Array<PolicyCapability | 'root'> {
    if (this.isRoot) return ['root'];
    return capabilitiesOf(this.maskFor(path, true));
  }

  /**
   * The `authorize` callback for an engine mounted at `mount` (e.g. `secret/`): engines pass mount-relative paths,
   * while policies name full paths.
   */
  authorizer(mount: string): BulkAuthorizer {
    const prefix = mount === '' || mount.endsWith('/') ? mount : `${mount}/`;
    const authorize = ({ capability, path }: CapabilityCheck) => this.allows(capability, prefix + path);
    authorize.many = (checks: readonly CapabilityCheck[]) => this.allowsMany(checks.map(({ capability, path }) => ({ capability, path: prefix + path })));
    return authorize;
  }

  /**
   * The verdicts of many checks, equal to asking `allows` for each. Checks are grouped by folder, and for each folder
   * the rules that cannot match anything below it are set aside once, so a page of names in one folder costs a map
   * lookup and a short scan per name however many rules the policies hold.
   */
  allowsMany(checks: readonly { capability: RequiredCapability; path: string }[]): boolean[] {
    if (this.isRoot) return checks.map(() => true);
    const narrowed = new Map<string, Narrowed>();
    return checks.map(({ capability, path }) => {
      if (capability === 'list' || capability === 'scan') return this.allows(capability, path);
      const folder = path.slice(0, path.lastIndexOf('/') + 1);
      let rules = narrowed.get(folder);
      if (!rules) narrowed.set(folder, (rules = this.narrow(folder)));
      const mask = this.exact.get(path) ?? this.nonExactMask(path, rules) ?? 0;
      return (mask & bitOf(capability)) !== 0;
    });
  }

  private add(rawPath: string, mask: CapabilityMask): void {
    const path = rawPath.startsWith('/') ? rawPath.slice(1) : rawPath;
    if (hasSegmentWildcards(path)) {
      this.segmentMasks.set(path, mergeMasks(this.segmentMasks.get(path), mask));
    } else if (path.endsWith('*')) {
      const prefix = path.slice(0, -1);
      this.prefixes.set(prefix, mergeMasks(this.prefixes.get(prefix), mask));
    } else {
      this.exact.set(path, mergeMasks(this.exact.get(path), mask));
    }
  }

  private maskFor(path: string, isList: boolean): CapabilityMask {
    const exact = this.exact.get(path) ?? (isList ? this.exact.get(withoutTrailingSlash(path)) : undefined);
    if (exact !== undefined) return exact;
    // A LIST of "foo/" is first matched as "foo", so that a rule "foo*" or "+/foo" grants listing "foo/".
    if (isList && path.endsWith('/')) {
      const folder = this.nonExactMask(withoutTrailingSlash(path));
      if (folder !== undefined) return folder;
    }
    return this.nonExactMask(path) ?? 0;
  }

  /** The prefix and segment rules that can match a path directly below `folder` (which is '' or ends in '/'). */
  private narrow(folder: string): Narrowed {
    const covering = this.prefixOrder.find((candidate) => folder.startsWith(candidate));
    const inner = this.prefixOrder.filter((candidate) => candidate.length > folder.length && candidate.startsWith(folder));
    const parts = folder === '' ? [] : folder.slice(0, -1).split('/');
    return {
      prefixOrder: covering === undefined ? inner : [...inner, covering],
      segmentRules: this.segmentRules.filter((rule) => mayMatchBelow(rule, parts)),
    };
  }

  private nonExactMask(path: string, rules: Narrowed = this.allRules): CapabilityMask | undefined {
    const prefix = rules.prefixOrder.find((candidate) => path.startsWith(candidate));
    if (rules.segmentRules.length === 0) return prefix === undefined ? undefined : this.prefixes.get(prefix);
    let best: Candidate | undefined;
    if (prefix !== undefined) {
      best = { isPrefix: true, firstWildcard: prefix.length, wildcards: 0, literal: prefix, mask: this.prefixes.get(prefix)! };
    }
    const parts = path.split('/');
    for (const rule of rules.segmentRules) {
      if (matchesSegments(rule, parts) && (!best || compareCandidates(rule, best) > 0)) best = rule;
    }
    return best?.mask;
  }
}

/**
 * Whether a segment rule can match some path that has the folder `parts` as its first segments and at least one more
 * segment: every folder segment must match, and the rule must allow a further segment.
 */
function mayMatchBelow(rule: SegmentRule, parts: readonly string[]): boolean {
  const { segments, isPrefix } = rule;
  for (let i = 0; i < parts.length; i++) {
    if (i >= segments.length) return false;
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (last && isPrefix && (segment === '+' || parts[i]!.startsWith(segment))) return true;
    if (segment !== '+' && segment !== parts[i]) return false;
    if (last) return false;
  }
  return true;
}

function withoutTrailingSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

function describeSegmentRule(path: string, mask: CapabilityMask): SegmentRule {
  const isPrefix = path.endsWith('*');
  const literal = isPrefix ? path.slice(0, -1) : path;
  const segments = literal.split('/');
  return {
    segments,
    isPrefix,
    firstWildcard: path.indexOf('+'),
    wildcards: segments.filter((segment) => segment === '+').length,
    literal,
    mask,
  };
}
