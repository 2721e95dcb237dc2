import { InvalidRequest } from '../lib/errors.js';
import { parseDuration } from '../lib/duration.js';
import { HclObject, type HclValue } from './hcl.js';
import { JsonMembers, type JsonValue } from './policy-json.js';

/**
 * The parameter constraints and wrapping bounds of a policy's path stanza, read and merged as Vault reads and merges
 * them: `allowed_parameters`, `denied_parameters` (keys lowercased, each with a list of values, an empty list meaning
 * any value), `required_parameters`, and `min_wrapping_ttl`/`max_wrapping_ttl` in seconds.
 */

/** A parameter's name, lowercased, and the values a policy lists for it (empty: any value). */
export type ParameterValues = ReadonlyMap<string, readonly unknown[]>;

/** What a path stanza says about a request's parameters and its response wrapping; a field is absent when unset. */
export interface ParameterConstraints {
  /** When non-empty, only these parameters (or any, for `*`) may be sent, each with one of its listed values. */
  allowedParameters?: ParameterValues;
  /** These parameters may not be sent with one of their listed values; `*` refuses every parameter. */
  deniedParameters?: ParameterValues;
  /** Parameters every checked request must send, as written in the policy. */
  requiredParameters?: readonly string[];
  /** A request must be wrapped with a TTL at least this long (seconds). */
  minWrappingTtl?: number;
  /** A request must be wrapped with a TTL at most this long (seconds). */
  maxWrappingTtl?: number;
}

/** The stanza keys read here. */
export const CONSTRAINT_KEYS: ReadonlySet<string> = new Set([
  'allowed_parameters',
  'denied_parameters',
  'required_parameters',
  'min_wrapping_ttl',
  'max_wrapping_ttl',
]);

type PolicyValue = HclValue | JsonValue;

/** A value as a request would carry it: HCL and JSON objects become plain objects, lists arrays. */
function plain(value: PolicyValue): unknown {
  if (value instanceof HclObject) {
    return Object.fromEntries(value.entries.map((entry) => [entry.key, plain(entry.value)]));
  }
  if (value instanceof JsonMembers) return Object.fromEntries(value.members.map(([key, item]) => [key, plain(item)]));
  if (Array.isArray(value)) return (value as PolicyValue[]).map(plain);
  return value;
}

function membersOf(value: PolicyValue): ReadonlyArray<readonly [string, PolicyValue]> | undefined {
  if (value instanceof HclObject) return value.entries.map((entry) => [entry.key, entry.value] as const);
  if (value instanceof JsonMembers) return value.members;
  return undefined;
}

function parameterValues(where: string, key: string, value: PolicyValue): ParameterValues {
  const members = membersOf(value);
  if (!members) throw new InvalidRequest(`failed to parse policy: ${where}: ${key} must map parameters to lists`);
  const values = new Map<string, readonly unknown[]>();
  for (const [name, list] of members) {
    if (!Array.isArray(list)) {
      throw new InvalidRequest(
        `failed to parse policy: ${where}: ${key}: ${JSON.stringify(name)} must be a list of values`,
      );
    }
    values.set(name.toLowerCase(), (list as PolicyValue[]).map(plain));
  }
  return values;
}

function wrappingTtl(where: string, key: string, value: PolicyValue): number {
  if (typeof value !== 'number' && typeof value !== 'string') {
    throw new InvalidRequest(`failed to parse policy: ${where}: ${key} must be a duration`);
  }
  const seconds = parseDuration(value, key);
  if (seconds < 0) throw new InvalidRequest(`failed to parse policy: ${where}: ${key} must not be negative`);
  return seconds;
}

/**
 * Reads one constraint setting of a stanza (a key of CONSTRAINT_KEYS) into `into`. `where` names the stanza in errors.
 */
export function readConstraint(into: ParameterConstraints, where: string, key: string, value: PolicyValue): void {
  switch (key) {
    case 'allowed_parameters':
      into.allowedParameters = parameterValues(where, key, value);
      break;
    case 'denied_parameters':
      into.deniedParameters = parameterValues(where, key, value);
      break;
    case 'required_parameters':
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
        throw new InvalidRequest(`failed to parse policy: ${where}: ${key} must be a list of strings`);
      }
      // An empty list requires nothing, as an absent one.
      if (value.length > 0) into.requiredParameters = value;
      break;
    default: {
      // Zero sets no bound, as in Vault.
      const seconds = wrappingTtl(where, key, value);
      if (seconds > 0) into[key === 'min_wrapping_ttl' ? 'minWrappingTtl' : 'maxWrappingTtl'] = seconds;
    }
  }
  const { minWrappingTtl: min, maxWrappingTtl: max } = into;
  if (min && max && max < min) {
    throw new InvalidRequest(`failed to parse policy: ${where}: max_wrapping_ttl cannot be less than min_wrapping_ttl`);
  }
}

/**
 * Two stanzas' lists for the same parameters, merged as Vault merges them: an empty list (any value) wins for its key,
 * otherwise the lists join, the later stanza's values first. A stanza with no (or an empty) map changes nothing.
 */
function mergeValues(current: ParameterValues | undefined, added: ParameterValues | undefined) {
  if (!added || added.size === 0) return current;
  if (!current) return added;
  const merged = new Map(current);
  for (const [key, values] of added) {
    const before = merged.get(key);
    merged.set(key, values.length === 0 || before?.length === 0 ? [] : [...values, ...(before ?? [])]);
  }
  return merged;
}

/** The lesser of two bounds that are set (zero is unset), as Vault prefers the shorter lifetime. */
function lesserBound(current: number | undefined, added: number | undefined): number | undefined {
  if (!added) return current;
  return current && current < added ? current : added;
}

/**
 * The constraints of two stanzas for one path (of one policy or of several), merged as Vault merges them: parameter
 * lists as in `mergeValues`, required parameters as a union, and the lesser of each wrapping bound. (The merged bounds
 * can cross: a request is then refused, as in Vault.)
 */
export function mergeConstraints(
  current: ParameterConstraints | undefined,
  added: ParameterConstraints,
): ParameterConstraints {
  if (!current) return added;
  const merged: ParameterConstraints = {};
  const allowed = mergeValues(current.allowedParameters, added.allowedParameters);
  if (allowed) merged.allowedParameters = allowed;
  const denied = mergeValues(current.deniedParameters, added.deniedParameters);
  if (denied) merged.deniedParameters = denied;
  const required = [...new Set([...(current.requiredParameters ?? []), ...(added.requiredParameters ?? [])])];
  if (required.length > 0) merged.requiredParameters = required;
  const min = lesserBound(current.minWrappingTtl, added.minWrappingTtl);
  if (min) merged.minWrappingTtl = min;
  const max = lesserBound(current.maxWrappingTtl, added.maxWrappingTtl);
  if (max) merged.maxWrappingTtl = max;
  return merged;
}

/** Whether a stanza says anything about parameters or wrapping. */
export function hasConstraints(constraints: ParameterConstraints): boolean {
  return Object.keys(constraints).length > 0;
}
