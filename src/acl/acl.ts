import type { BulkAuthorizer, CapabilityCheck } from '../core/request.js';
import {
  bitOf,
  DENY,
  mergeMasks,
  reportCapabilities,
  ruleMask,
  SCAN_BY_LIST,
  type CapabilityMask,
  type PolicyCapability,
  type RequiredCapability,
} from './capability.js';
import { ROOT_POLICY_NAME } from './builtin-policies.js';
import type { NamedPolicy } from './policy.js';
import {
  compareCandidates,
  describeSegmentRule,
  hasSegmentWildcards,
  higher,
  matchesSegments,
  mayMatchBelow,
  prefixCandidate,
  type Candidate,
  type SegmentRule,
} from './wildcard-rules.js';

/** The non-exact rules that matter below one folder, in the evaluator's order. */
interface Narrowed {
  readonly prefixOrder: readonly string[];
  readonly segmentRules: readonly SegmentRule[];
  /** The mask of every path directly below the folder, when no rule tells them apart. */
  readonly folderMask?: CapabilityMask | undefined;
}

/** LIST and SCAN name a folder: they are matched with the folder's fallbacks (see `grants`). */
function namesFolder(capability: RequiredCapability): boolean {
  return capability === 'list' || capability === 'scan';
}

/**
 * An access control list compiled from ACL policies, evaluated like Vault's:
 * - an exact path rule wins over every glob; for a LIST the path is also tried without its trailing '/';
 * - otherwise, of the `*` (prefix) and `+` (one segment) rules that match, the most specific wins: the one whose first
 *   wildcard comes latest, then a non-prefix rule over a prefix rule, then fewer `+` segments, then the longer path;
 * - a LIST of `folder/` weighs the rules matching `folder` and those matching `folder/` together (see `grantsFolder`);
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
    return this.grants(wanted, path, namesFolder(capability));
  }

  /**
   * The capabilities on `path` as Vault's `sys/capabilities` names them: `['root']` for the root policy, `['deny']` when
   * nothing is granted. Each capability is judged exactly as `allows` judges a request needing it, so the answer never
   * promises what a request would be refused; `scan` is reported only where a policy states it, not where `list`
   * implies it.
   */
  capabilities(path: string): Array<PolicyCapability | 'root'> {
    if (this.isRoot) return ['root'];
    return reportCapabilities((capability) => this.grants(bitOf(capability), path, namesFolder(capability)));
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
      if (namesFolder(capability)) return this.allows(capability, path);
      const folder = path.slice(0, path.lastIndexOf('/') + 1);
      const rules = narrowed.get(folder) ?? narrowed.set(folder, this.narrow(folder)).get(folder)!;
      const mask = rules.folderMask ?? this.exact.get(path) ?? this.bestMatch(path, rules)?.mask ?? 0;
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

  /** Whether the rules matching `path` grant a capability of `wanted`; `isFolder` for a LIST or a SCAN. */
  private grants(wanted: CapabilityMask, path: string, isFolder: boolean): boolean {
    const trimmed = isFolder && path.endsWith('/') ? path.slice(0, -1) : path;
    const exact = this.exact.get(path) ?? this.exact.get(trimmed);
    if (exact !== undefined) return (exact & wanted) !== 0;
    if (trimmed !== path) return this.grantsFolder(wanted, trimmed, path);
    return ((this.bestMatch(path)?.mask ?? 0) & wanted) !== 0;
  }

  /**
   * A LIST of `folder/` is matched both as `folder` and as `folder/`: as `folder`, so that rules written without the
   * slash (`folder*`, `+/folder`, `team/+`) grant listing it, as in Vault; as `folder/`, so that a deny on `folder/*`
   * is seen. Of all those matches the most specific one granting the capability wins, unless a deny matches that is
   * more specific still. (Taking only the `folder` matches, as Vault once did, let `secret/metadata/*` list a folder
   * that `secret/metadata/private/*` denies.)
   */
  private grantsFolder(wanted: CapabilityMask, trimmed: string, path: string): boolean {
    let grant: Candidate | undefined;
    let deny: Candidate | undefined;
    for (const form of [trimmed, path]) {
      this.forEachMatch(form, this.allRules, (candidate) => {
        if (candidate.mask & DENY) deny = higher(deny, candidate);
        else if (candidate.mask & wanted) grant = higher(grant, candidate);
      });
    }
    return grant !== undefined && (deny === undefined || compareCandidates(grant, deny) > 0);
  }

  /** The most specific prefix or segment rule of `rules` that matches `path`. */
  private bestMatch(path: string, rules: Narrowed = this.allRules): Candidate | undefined {
    let best: Candidate | undefined;
    this.forEachMatch(path, rules, (candidate) => (best = higher(best, candidate)));
    return best;
  }

  /** Visits the longest prefix rule matching `path` (shorter ones never win) and every matching segment rule. */
  private forEachMatch(path: string, rules: Narrowed, visit: (candidate: Candidate) => void): void {
    const prefix = rules.prefixOrder.find((candidate) => path.startsWith(candidate));
    if (prefix !== undefined) visit(prefixCandidate(prefix, this.prefixes.get(prefix)!));
    let parts: string[] | undefined;
    for (const rule of rules.segmentRules) {
      parts ??= path.split('/');
      if (matchesSegments(rule, parts)) visit(rule);
    }
  }

  /** The prefix and segment rules that can match a path directly below `folder` (which is '' or ends in '/'). */
  private narrow(folder: string): Narrowed {
    // Prefixes of the folder cover every name below it; prefixes that extend the folder may match some of them.
    const prefixOrder = this.prefixOrder.filter((prefix) => folder.startsWith(prefix) || prefix.startsWith(folder));
    const parts = folder === '' ? [] : folder.slice(0, -1).split('/');
    const segmentRules = this.segmentRules.filter((rule) => mayMatchBelow(rule, parts));
    const hasExact = [...this.exact.keys()].some((path) => path.startsWith(folder));
    // Nothing below the folder is more specific than the longest prefix covering it: one verdict for every name.
    const uniform = !hasExact && segmentRules.length === 0 && prefixOrder.every((prefix) => folder.startsWith(prefix));
    const covering = prefixOrder[0];
    return {
      prefixOrder,
      segmentRules,
      folderMask: uniform ? (covering === undefined ? 0 : this.prefixes.get(covering)) : undefined,
    };
  }
}
