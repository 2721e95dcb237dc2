import type { CapabilityMask } from './capability.js';
import {
  compareCandidates,
  mayMatchBelow,
  prefixCandidate,
  type Candidate,
  type SegmentRule,
} from './wildcard-rules.js';

/**
 * The rules of an Acl that can decide a path directly below one folder (the folder, then a name without '/'), set out
 * once for all the checks in that folder (the Acl keeps them). Below a folder, a `*` or `+` rule either matches every
 * name or lets the name's own text decide (a `+`, a literal, a glob's prefix), so each rule keeps only that test. Kept
 * most specific first, the first rule whose test passes is the one the evaluator would pick from all of them; an exact
 * rule naming the path comes before any.
 */

/** A rule's test below the folder: the name must be its `text` (`whole`), or start with it ('' for every name). */
interface NameRule extends Candidate {
  whole: boolean;
  text: string;
}

export class FolderRules {
  /** The exact rules naming a path directly below the folder, by name; none is the usual case, and skips a lookup. */
  private readonly exact: ReadonlyMap<string, CapabilityMask> | undefined;
  private readonly rules: NameRule[] = [];

  /** From all of the Acl's rules: `exact` by path, `prefixes` by their literal (without the `*`), `segmentRules`. */
  constructor(
    folder: string,
    exact: ReadonlyMap<string, CapabilityMask>,
    prefixes: ReadonlyMap<string, CapabilityMask>,
    segmentRules: readonly SegmentRule[],
  ) {
    const names = new Map<string, CapabilityMask>();
    for (const [path, mask] of exact) {
      if (path.startsWith(folder) && !path.includes('/', folder.length)) names.set(path.slice(folder.length), mask);
    }
    this.exact = names.size > 0 ? names : undefined;
    for (const [literal, mask] of prefixes) {
      // A glob the folder starts with covers every name; one that goes on past the folder decides by the name's start.
      if (folder.startsWith(literal)) this.rules.push({ ...prefixCandidate(literal, mask), whole: false, text: '' });
      else if (literal.startsWith(folder) && !literal.includes('/', folder.length)) {
        this.rules.push({ ...prefixCandidate(literal, mask), whole: false, text: literal.slice(folder.length) });
      }
    }
    const parts = folder === '' ? [] : folder.slice(0, -1).split('/');
    for (const rule of segmentRules.filter((candidate) => mayMatchBelow(candidate, parts))) {
      // Past the folder such a rule has its last segment left, or none (a glob that ends within the folder).
      const last = rule.segments[parts.length];
      const open = last === undefined || last === '+';
      this.rules.push({ ...rule, whole: !open && !rule.isPrefix, text: open ? '' : last });
    }
    this.rules.sort((a, b) => compareCandidates(b, a));
  }

  /** The mask of the rule that decides `path`, whose name (after the folder) begins at `at`. */
  maskOf(path: string, at: number): CapabilityMask {
    const exact = this.exact?.get(path.slice(at));
    if (exact !== undefined) return exact;
    for (const rule of this.rules) {
      const { whole, text } = rule;
      if (whole ? path.length - at === text.length && path.endsWith(text) : path.startsWith(text, at)) return rule.mask;
    }
    return 0;
  }
}
