import type { CapabilityMask } from './capability.js';

/**
 * The non-exact rules of a policy (`*` globs and `+` segment wildcards), described the way Vault ranks several of them
 * matching one path: the more specific rule wins.
 */

/** A rule path with `+` segments. */
export interface SegmentRule {
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
export type Candidate = Pick<SegmentRule, 'isPrefix' | 'firstWildcard' | 'wildcards' | 'literal' | 'mask'>;

// Vault treats a path as having segment wildcards when it is "+", starts with "+/" or contains "/+".
export function hasSegmentWildcards(path: string): boolean {
  return path === '+' || path.startsWith('+/') || path.includes('/+');
}

export function describeSegmentRule(path: string, mask: CapabilityMask): SegmentRule {
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

/** The candidate a prefix glob (`literal*`) makes: its glob is its only wildcard. */
export function prefixCandidate(literal: string, mask: CapabilityMask): Candidate {
  return { isPrefix: true, firstWildcard: literal.length, wildcards: 0, literal, mask };
}

/**
 * Positive when `a` ranks above `b`: the later first wildcard, then a non-prefix rule over a prefix rule, then fewer
 * `+` segments, then the longer path, then the path that sorts last. Two distinct rules never tie (a rule's path is
 * its literal and whether it ends in `*`); the same rule met twice, as by a LIST matching both forms of its folder,
 * ranks below itself, which makes no difference.
 */
export function compareCandidates(a: Candidate, b: Candidate): number {
  if (a.firstWildcard !== b.firstWildcard) return a.firstWildcard - b.firstWildcard;
  if (a.isPrefix !== b.isPrefix) return a.isPrefix ? -1 : 1;
  if (a.wildcards !== b.wildcards) return b.wildcards - a.wildcards;
  if (a.literal.length !== b.literal.length) return a.literal.length - b.literal.length;
  return a.literal > b.literal ? 1 : -1;
}

/** The higher ranking of two candidates, the first of which may be missing. */
export function higher<T extends Candidate>(a: T | undefined, b: T): T {
  return a === undefined || compareCandidates(b, a) > 0 ? b : a;
}

/** Whether the rule matches a path split at '/'. */
export function matchesSegments(rule: SegmentRule, parts: readonly string[]): boolean {
  const { segments, isPrefix } = rule;
  if (parts.length < segments.length || (!isPrefix && parts.length !== segments.length)) return false;
  return segments.every((segment, i) => {
    if (segment === '+' || segment === parts[i]) return true;
    return isPrefix && i === segments.length - 1 && parts[i]!.startsWith(segment);
  });
}

/**
 * Whether a segment rule can match some path made of the folder `parts` and one more segment. If any last segment
 * makes it match, the rule's own segment at that place does (`+`, a literal and a glob's prefix each match
 * themselves), so one trial decides.
 */
export function mayMatchBelow(rule: SegmentRule, parts: readonly string[]): boolean {
  return matchesSegments(rule, [...parts, rule.segments[parts.length] ?? '']);
}
