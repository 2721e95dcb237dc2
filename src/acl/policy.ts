import { InvalidRequest } from '../lib/errors.js';
import { isPolicyCapability, legacyPolicyCapabilities, type PolicyCapability } from './capability.js';
import { HclObject, parseHcl, type HclEntry, type HclValue } from './hcl.js';
import { JsonMembers, readJson, type JsonValue } from './policy-json.js';
import { CONSTRAINT_KEYS, readConstraint, type ParameterConstraints } from './parameters.js';

/**
 * One `path` stanza of a policy, normalised: the path without a leading '/', its capabilities deduplicated, and the
 * parameter constraints and wrapping bounds it sets (absent when it sets none).
 */
export interface PathRule extends ParameterConstraints {
  path: string;
  capabilities: PolicyCapability[];
}

/** A policy as the evaluator takes it. */
export interface NamedPolicy {
  name: string;
  rules: readonly PathRule[];
}

// Vault path-stanza keys this evaluator does not implement; accepting and ignoring them would grant more than the
// policy's author meant (mfa_methods conditions a grant), so a policy that uses them is refused.
const UNSUPPORTED_KEYS = new Set(['mfa_methods', 'control_group', 'subscribe_event_types']);

const TOP_LEVEL_KEYS = new Set(['name', 'path']);

interface Stanza {
  path: string;
  settings: ReadonlyArray<readonly [string, HclValue | JsonValue]>;
}

function fail(message: string): never {
  throw new InvalidRequest(`failed to parse policy: ${message}`);
}

function stanzasFromHcl(entries: HclEntry[]): Stanza[] {
  const stanzas: Stanza[] = [];
  for (const entry of entries) {
    if (!TOP_LEVEL_KEYS.has(entry.key)) fail(`line ${entry.line}: invalid key ${JSON.stringify(entry.key)}`);
    if (entry.key === 'name') {
      if (typeof entry.value !== 'string') fail(`line ${entry.line}: expected name = "<name>"`);
      continue;
    }
    if (entry.labels.length !== 1 || !(entry.value instanceof HclObject))
      fail(`line ${entry.line}: expected path "<path>" { ... }`);
    stanzas.push({
      path: entry.labels[0]!,
      settings: entry.value.entries.map((item) => [item.key, item.value] as const),
    });
  }
  return stanzas;
}

// Every member counts, a repeated one too: a path named twice is two stanzas, as in HCL.
function stanzasFromJson(document: JsonMembers): Stanza[] {
  const stanzas: Stanza[] = [];
  for (const [key, value] of document.members) {
    if (!TOP_LEVEL_KEYS.has(key)) fail(`invalid key ${JSON.stringify(key)}`);
    if (key === 'name') {
      if (typeof value !== 'string') fail('"name" must be a string');
      continue;
    }
    // HCL's JSON form allows both {"path": {...}} and {"path": [{...}, {...}]}.
    for (const group of Array.isArray(value) ? value : [value]) {
      if (!(group instanceof JsonMembers)) fail('"path" must map paths to objects');
      for (const [path, settings] of group.members) {
        if (!(settings instanceof JsonMembers)) fail(`path ${JSON.stringify(path)}: expected an object`);
        stanzas.push({ path, settings: settings.members });
      }
    }
  }
  return stanzas;
}

function stringList(path: string, key: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    fail(`path ${JSON.stringify(path)}: ${key} must be a list of strings`);
  }
  return value;
}

function ruleOf(stanza: Stanza): PathRule {
  const path = stanza.path.startsWith('/') ? stanza.path.slice(1) : stanza.path;
  const quoted = JSON.stringify(stanza.path);
  if (path.includes('+*')) fail(`path ${quoted}: invalid use of wildcards ('+*' is forbidden)`);
  if (path.includes('{{')) fail(`path ${quoted}: templated policy paths are not supported`);
  const capabilities = new Set<PolicyCapability>();
  const constraints: ParameterConstraints = {};
  for (const [key, value] of stanza.settings) {
    if (key === 'capabilities') {
      for (const name of stringList(stanza.path, key, value)) {
        if (!isPolicyCapability(name)) fail(`path ${quoted}: invalid capability ${JSON.stringify(name)}`);
        capabilities.add(name);
      }
    } else if (key === 'policy') {
      const legacy = typeof value === 'string' ? legacyPolicyCapabilities(value) : undefined;
      if (!legacy) fail(`path ${quoted}: invalid policy ${JSON.stringify(value)}`);
      for (const name of legacy) capabilities.add(name);
    } else if (key === 'comment') {
      if (typeof value !== 'string') fail(`path ${quoted}: ${key} must be a string`);
    } else if (CONSTRAINT_KEYS.has(key)) {
      readConstraint(constraints, `path ${quoted}`, key, value);
    } else if (UNSUPPORTED_KEYS.has(key)) {
      fail(`path ${quoted}: ${key} is not supported`);
    } else {
      fail(`path ${quoted}: invalid key ${JSON.stringify(key)}`);
    }
  }
  return { path, capabilities: capabilities.has('deny') ? ['deny'] : [...capabilities], ...constraints };
}

/**
 * Parses an ACL policy written in Vault's JSON form (`{"path": {"secret/data/*": {"capabilities": ["read"]}}}`) or its
 * HCL form (`path "secret/data/*" { capabilities = ["read"] }`). Throws InvalidRequest with a message naming the
 * problem; a policy is either understood completely or refused. A path named twice (two blocks, or a JSON key
 * repeated) gives two rules, which merge like the rules of two policies: capabilities add up and a deny wins.
 */
export function parsePolicy(text: string): PathRule[] {
  if (typeof text !== 'string') fail('the policy must be a string');
  const trimmed = text.trim();
  // Text that starts with '{' and reads as JSON is always an object.
  const stanzas = trimmed.startsWith('{')
    ? stanzasFromJson(readJson(trimmed) as JsonMembers)
    : stanzasFromHcl(parseHcl(text));
  return stanzas.map(ruleOf);
}
