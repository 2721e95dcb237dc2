import type { RequiredCapability } from './capability.js';
import type { ParameterConstraints } from './parameters.js';

/**
 * A granted request's parameters and wrapping judged against the constraints of the rule that granted it, as Vault's
 * ACL judges them.
 */

/** The operations whose parameters Vault checks (its read, create, update and patch; never list, delete or sudo). */
const CHECKED: ReadonlySet<RequiredCapability> = new Set(['read', 'create', 'update', 'patch']);

/** The wrapping TTLs a rule allows, in seconds; a bound is absent when the rule sets none. */
export interface WrappingBounds {
  min?: number;
  max?: number;
}

/** The wrapping bounds a rule's constraints set. */
export function boundsOf(constraints: ParameterConstraints | undefined): WrappingBounds {
  const bounds: WrappingBounds = {};
  if (constraints?.minWrappingTtl) bounds.min = constraints.minWrappingTtl;
  if (constraints?.maxWrappingTtl) bounds.max = constraints.maxWrappingTtl;
  return bounds;
}

/**
 * Vault's glob for parameter values: a leading `*` matches any start, a trailing `*` any end, both any text around the
 * middle. A value shorter than two characters is taken literally, so `["*"]` allows only the text `*`.
 */
function globMatches(pattern: string, value: string): boolean {
  if (pattern.length < 2) return pattern === value;
  const leading = pattern.startsWith('*');
  const trailing = pattern.endsWith('*');
  if (leading && trailing) return value.includes(pattern.slice(1, -1));
  if (leading) return value.endsWith(pattern.slice(1));
  if (trailing) return value.startsWith(pattern.slice(0, -1));
  return value === pattern;
}

/** Deep equality of JSON values: a number equals only a number, `1` never `"1"`. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  const keys = Object.keys(a);
  const other = b as Record<string, unknown>;
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(other, key) && sameValue((a as Record<string, unknown>)[key], other[key]))
  );
}

/** Whether a value is one of a parameter's listed values: any value when the list is empty, strings by glob. */
function listed(value: unknown, values: readonly unknown[]): boolean {
  if (values.length === 0) return true;
  return values.some((item) =>
    typeof item === 'string' && typeof value === 'string' ? globMatches(item, value) : sameValue(item, value ?? null),
  );
}

/**
 * Whether a request needing `capability`, sending `parameters` (its body's members, or its query's), keeps to the
 * constraints of the rule that granted it: every required parameter sent, no denied parameter (or value) sent, and
 * when parameters are allowed, only those, each with an allowed value. A request that sends nothing passes once its
 * required parameters are checked. Names compare case-insensitively, except that a required parameter must be sent
 * in lower case, as in Vault.
 */
export function parametersAllowed(
  constraints: ParameterConstraints | undefined,
  capability: RequiredCapability,
  parameters: Readonly<Record<string, unknown>> = {},
): boolean {
  if (!constraints || !CHECKED.has(capability)) return true;
  const { allowedParameters: allowed, deniedParameters: denied, requiredParameters: required = [] } = constraints;
  if (!required.every((name) => Object.hasOwn(parameters, name.toLowerCase()))) return false;
  const sent = Object.entries(parameters);
  if (sent.length === 0) return true;
  if (denied && denied.size > 0) {
    if (denied.has('*')) return false;
    for (const [name, value] of sent) {
      const values = denied.get(name.toLowerCase());
      if (values && listed(value, values)) return false;
    }
  }
  if (!allowed || allowed.size === 0) return true;
  const allowsAny = allowed.has('*');
  if (allowsAny && allowed.size === 1) return true;
  return sent.every(([name, value]) => {
    const values = allowed.get(name.toLowerCase());
    return values ? listed(value, values) : allowsAny;
  });
}

/**
 * Whether a response wrapped for `ttl` seconds (undefined: not wrapped) falls within `bounds`: a rule with a bound
 * requires wrapping, and bounds that crossed when policies merged allow nothing, as in Vault.
 */
export function wrapTtlAllowed({ min, max }: WrappingBounds, ttl: number | undefined): boolean {
  if (max !== undefined && (ttl === undefined || ttl > max)) return false;
  if (min !== undefined && (ttl === undefined || ttl < min)) return false;
  return min === undefined || max === undefined || min <= max;
}
