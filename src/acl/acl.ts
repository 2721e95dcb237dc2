import type { BulkAuthorizer, CapabilityCheck } from '../core/framework/request.js';
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
import { FolderRules } from './folder-rules.js';
import type { NamedPolicy } from './policy.js';
import { boundsOf, parametersAllowed, wrapTtlAllowed, type WrappingBounds } from './parameter-check.js';
import { hasConstraints, mergeConstraints, type ParameterConstraints } from './parameters.js';
import {
  compareCandidates,
  describeSegmentRule,
  hasSegmentWildcards,
  higher,
  matchesSegments,
  prefixCandidate,
  type Candidate,
  type SegmentRule,
} from './wildcard-rules.js';

/** How many folders' rules an Acl keeps set out (see `folderRules`). */
const MAX_FOLDERS = 1024;

/** LIST and SCAN name a folder: they are matched with the folder's fallbacks (see `grants`). */
function namesFolder(capability: RequiredCapability): boolean {
  return capability === 'list' || capability === 'scan';
}

/** The bits that grant a request needing `capability`: a SCAN also takes the list of a policy that never names scan. */
function wantedBy(capability: RequiredCapability): CapabilityMask {
  return capability === 'scan' ? bitOf('scan') | SCAN_BY_LIST : bitOf(capability);
}

/** One check of `allowsMany` (a full path) or of `authorizer` (a path below its mount). */
type AclCheck = { capability: RequiredCapability; path: string; listing?: true };

/**
 * A request's own check: what it needs on its path, the parameters it sends (its JSON body's members, or its query's),
 * and the TTL in seconds it asks its response be wrapped for (absent: not wrapped).
 */
export interface AclRequest {
  capability: RequiredCapability;
  path: string;
  parameters?: Readonly<Record<string, unknown>>;
  wrapTtl?: number;
}

/** Whether a check asks about a name a listing would show: only a `list` or `scan` check can (see `shows`). */
function asksListing(check: AclCheck): check is AclCheck & { capability: 'list' | 'scan' } {
  return check.listing === true && namesFolder(check.capability);
}

/**
 * An access control list compiled from ACL policies, evaluated like Vault's:
 * - an exact path rule wins over every glob; for a LIST the path is also tried without its trailing '/';
 * - otherwise, of the `*` (prefix) and `+` (one segment) rules that match, the most specific wins: the one whose first
 *   wildcard comes latest, then a non-prefix rule over a prefix rule, then fewer `+` segments, then the longer path;
 * - a LIST of `folder/` weighs the rules matching `folder` and those matching `folder/` together (see `grantsFolder`);
 * - rules of several policies for the same path merge: their capabilities add up, and a `deny` in any of them wins;
 * - the `root` policy allows everything.
 * A request's own check (`allowsRequest`) also weighs the parameter constraints and wrapping bounds of the rule that
 * decides its path, merged across policies as in Vault; other checks (the names of a listing, say) never do.
 * A listing asks a milder question of each name it would show (`shows`): not "granted?" but "denied?".
 */
export class Acl {
  readonly isRoot: boolean;
  private readonly exact = new Map<string, CapabilityMask>();
  private readonly prefixes = new Map<string, CapabilityMask>();
  private readonly segmentMasks = new Map<string, CapabilityMask>();
  /** Prefix rules, longest first, so the first match is Vault's longest-prefix match. */
  private readonly prefixOrder: string[];
  private readonly segmentRules: SegmentRule[];
  private readonly folders = new Map<string, FolderRules>();
  /** Parameter constraints and wrapping bounds, by rule path as written (a glob with its `*`). */
  private readonly constraints = new Map<string, ParameterConstraints>();

  constructor(policies: Iterable<NamedPolicy>) {
    let isRoot = false;
    for (const policy of policies) {
      if (policy.name === ROOT_POLICY_NAME) isRoot = true;
      const namesScan = policy.rules.some((rule) => rule.capabilities.includes('scan'));
      for (const { path, capabilities, ...constraints } of policy.rules) {
        this.add(path, ruleMask(capabilities, namesScan));
        const key = path.startsWith('/') ? path.slice(1) : path;
        if (hasConstraints(constraints))
          this.constraints.set(key, mergeConstraints(this.constraints.get(key), constraints));
      }
    }
    this.isRoot = isRoot;
    this.prefixOrder = [...this.prefixes.keys()].sort((a, b) => b.length - a.length);
    this.segmentRules = [...this.segmentMasks].map(([path, mask]) => describeSegmentRule(path, mask));
  }

  /** Whether the policies grant `capability` on `path` (a full path such as `secret/data/app`, no leading '/'). */
  allows(capability: RequiredCapability, path: string): boolean {
    if (this.isRoot) return true;
    return this.grants(wantedBy(capability), path, namesFolder(capability));
  }

  /**
   * Vault's whole check of a request on its own path: `allows`, then the parameter constraints and wrapping bounds of
   * the rule that decides the path (see `parametersAllowed` and `wrapTtlAllowed`).
   */
  allowsRequest({ capability, path, parameters, wrapTtl }: AclRequest): boolean {
    if (this.isRoot) return true;
    if (!this.allows(capability, path)) return false;
    const constraints = this.decidingConstraints(path, namesFolder(capability));
    if (!constraints) return true;
    return parametersAllowed(constraints, capability, parameters) && wrapTtlAllowed(boundsOf(constraints), wrapTtl);
  }

  /**
   * The wrapping TTLs, in seconds, that the rule deciding a request needing `capability` on `path` allows: `min` and
   * `max` when set (merged across policies: the lesser of each). With either set, a request must be wrapped.
   */
  wrappingBounds(capability: RequiredCapability, path: string): WrappingBounds {
    if (this.isRoot) return {};
    return boundsOf(this.decidingConstraints(path, namesFolder(capability)));
  }

  /**
   * Whether a LIST or SCAN (`capability`) that its own check let into a folder may show the name at `path` (a full
   * path: the folder's, then the name). As in Vault, a folder the token may list shows its names; only a deny hides one:
   * - a key (`path` without a trailing '/') is hidden when the rule that decides its path, the one `allows` takes, is a
   *   deny; no rule, or a rule that grants nothing asked, leaves it to the folder's grant;
   * - a sub-folder (`path` ending in '/') is hidden when a deny ranks at or above every rule granting `capability`
   *   among the rules matching it with and without its slash, as `allows` weighs a LIST of it. An exact rule on either
   *   form ranks above every glob (the form with the slash first) but counts only if it grants or denies: an exact
   *   `read` on `folder` says nothing about the names that `folder/*` denies.
   * What `allows(capability, path)` grants is always shown. The engines ask this through `authorizer()` with checks
   * marked `listing`; a detailed listing's metadata and `readable_only` still need `allows`.
   */
  shows(capability: 'list' | 'scan', path: string): boolean {
    if (this.isRoot) return true;
    return this.showsName(wantedBy(capability), path);
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
   * while policies name full paths. A check marked `listing` is answered by `shows`, any other by `allows`; given the
   * `request` (its full path, parameters and wrap TTL), a check of that path is answered by `allowsRequest`.
   */
  authorizer(mount: string, request?: Omit<AclRequest, 'capability'>): BulkAuthorizer {
    const prefix = mount === '' || mount.endsWith('/') ? mount : `${mount}/`;
    // Parameters and wrapping belong to the request's own path: a check of any other path (a listing's names, the
    // source of a move) is judged by its capabilities alone, as in Vault.
    const own = (check: CapabilityCheck) => {
      if (request === undefined || asksListing(check)) return false;
      const full = prefix + check.path;
      // An engine asks a LIST about its folder with a trailing '/', whether or not the request's path had one.
      return full === request.path || (namesFolder(check.capability) && full === `${request.path}/`);
    };
    const authorize = (check: CapabilityCheck) => {
      if (own(check))
        return this.allowsRequest({ ...request!, capability: check.capability, path: prefix + check.path });
      return asksListing(check)
        ? this.shows(check.capability, prefix + check.path)
        : this.allows(check.capability, prefix + check.path);
    };
    authorize.many = (checks: readonly CapabilityCheck[]) =>
      this.verdicts(checks, prefix).map((verdict, i) => (own(checks[i]!) ? authorize(checks[i]!) : verdict));
    return authorize;
  }

  /**
   * The verdicts of many checks on full paths, equal to asking each alone: `shows` for a `list` or `scan` check
   * marked `listing`, `allows` for any other (see `verdicts`).
   */
  allowsMany(checks: readonly { capability: RequiredCapability; path: string; listing?: true }[]): boolean[] {
    return this.verdicts(checks, '');
  }

  /**
   * `allowsMany` on the paths of `checks` below `mount`. Checks are grouped by folder, and each folder's rules are set
   * out once (`FolderRules`), so a page of names in one folder costs a short scan per name however many rules the
   * policies hold. Only a LIST or SCAN of a folder (a path ending in '/') is weighed in full (`grantsFolder`); on any
   * other path they are judged like every capability, by the one rule that decides the path: whether it grants, or
   * for a listing's key whether it is no deny.
   */
  private verdicts(checks: readonly AclCheck[], mount: string): boolean[] {
    if (this.isRoot) return checks.map(() => true);
    // The folder of the check before: the next check in the same folder takes its rules without a lookup. (indexOf,
    // not startsWith: V8's startsWith is three times slower with a folder sliced from a path.)
    let folder = '';
    let rules: FolderRules | undefined;
    return checks.map((check) => {
      const { capability, path } = check;
      const wanted = wantedBy(capability);
      const listing = asksListing(check);
      // A folder's full path ends in '/': the path's own end, or the mount's for the mount itself.
      if (namesFolder(capability) && (path || mount).endsWith('/')) {
        return listing ? this.showsName(wanted, mount + path) : this.grants(wanted, mount + path, true);
      }
      let at = folder.length;
      if (rules === undefined || path.indexOf(folder) !== 0 || path.includes('/', at)) {
        at = path.lastIndexOf('/') + 1;
        folder = path.slice(0, at);
        rules = this.folderRules(mount + folder);
      }
      const mask = rules.maskOf(path, at);
      return listing ? (mask & DENY) === 0 : (mask & wanted) !== 0;
    });
  }

  /** A folder's rules, set out on its first check and kept: the policies never change. */
  private folderRules(folder: string): FolderRules {
    let rules = this.folders.get(folder);
    if (rules === undefined) {
      // Callers name the folders: a long-lived Acl must not keep every one it was ever asked about.
      if (this.folders.size >= MAX_FOLDERS) this.folders.clear();
      rules = new FolderRules(folder, this.exact, this.prefixes, this.segmentRules);
      this.folders.set(folder, rules);
    }
    return rules;
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
    if (trimmed !== path) return this.grantsFolder(wanted, trimmed, path, false);
    return ((this.bestMatch(path)?.mask ?? 0) & wanted) !== 0;
  }

  /** `shows` for a listing wanting a capability of `wanted`, once the root policy is ruled out. */
  private showsName(wanted: CapabilityMask, path: string): boolean {
    if (!path.endsWith('/')) return ((this.exact.get(path) ?? this.bestMatch(path)?.mask ?? 0) & DENY) === 0;
    const trimmed = path.slice(0, -1);
    for (const form of [path, trimmed]) {
      const exact = this.exact.get(form) ?? 0;
      if ((exact & (wanted | DENY)) !== 0) return (exact & DENY) === 0;
    }
    return this.grantsFolder(wanted, trimmed, path, true);
  }

  /**
   * A LIST of `folder/` is matched both as `folder` and as `folder/`: as `folder`, so that rules written without the
   * slash (`folder*`, `+/folder`, `team/+`) grant listing it, as in Vault; as `folder/`, so that a deny on `folder/*`
   * is seen. Of all those matches the most specific one granting the capability wins, unless a deny matches that is
   * more specific still. (Taking only the `folder` matches, as Vault once did, let `secret/metadata/*` list a folder
   * that `secret/metadata/private/*` denies.) For a sub-folder a listing would show (`listing`), no grant is needed:
   * only such a deny hides it.
   */
  private grantsFolder(wanted: CapabilityMask, trimmed: string, path: string, listing: boolean): boolean {
    let grant: Candidate | undefined;
    let deny: Candidate | undefined;
    for (const form of [trimmed, path]) {
      this.forEachMatch(form, (candidate) => {
        if (candidate.mask & DENY) deny = higher(deny, candidate);
        else if (candidate.mask & wanted) grant = higher(grant, candidate);
      });
    }
    if (deny === undefined) return listing || grant !== undefined;
    return grant !== undefined && compareCandidates(grant, deny) > 0;
  }

  /** The constraints of the rule Vault takes to decide `path`: exact, then (for a folder) without its '/', then a glob. */
  private decidingConstraints(path: string, isFolder: boolean): ParameterConstraints | undefined {
    if (this.constraints.size === 0) return undefined;
    const trimmed = isFolder && path.endsWith('/') ? path.slice(0, -1) : path;
    if (this.exact.has(path)) return this.constraints.get(path);
    if (this.exact.has(trimmed)) return this.constraints.get(trimmed);
    const best = (trimmed !== path ? this.bestMatch(trimmed) : undefined) ?? this.bestMatch(path);
    return best && this.constraints.get(best.isPrefix ? `${best.literal}*` : best.literal);
  }

  /** The most specific prefix or segment rule that matches `path`. */
  private bestMatch(path: string): Candidate | undefined {
    let best: Candidate | undefined;
    this.forEachMatch(path, (candidate) => (best = higher(best, candidate)));
    return best;
  }

  /** Visits the longest prefix rule matching `path` (shorter ones never win) and every matching segment rule. */
  private forEachMatch(path: string, visit: (candidate: Candidate) => void): void {
    const prefix = this.prefixOrder.find((candidate) => path.startsWith(candidate));
    if (prefix !== undefined) visit(prefixCandidate(prefix, this.prefixes.get(prefix)!));
    let parts: string[] | undefined;
    for (const rule of this.segmentRules) {
      parts ??= path.split('/');
      if (matchesSegments(rule, parts)) visit(rule);
    }
  }
}
