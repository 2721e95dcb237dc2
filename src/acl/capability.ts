import { InvalidRequest } from '../lib/errors.js';

/**
 * The capabilities a policy can grant on a path, with Vault's names (and OpenBao's `scan`, a recursive listing). `deny`
 * overrides every other one. New names go at the end: a mask's bits follow this order.
 */
export const POLICY_CAPABILITIES = [
  'deny',
  'create',
  'read',
  'update',
  'delete',
  'list',
  'sudo',
  'patch',
  'scan',
] as const;

/** One capability a policy rule may name. */
export type PolicyCapability = (typeof POLICY_CAPABILITIES)[number];

/** A capability an operation can need (deny is a verdict, never a need). */
export type RequiredCapability = Exclude<PolicyCapability, 'deny'>;

export function isPolicyCapability(value: string): value is PolicyCapability {
  return (POLICY_CAPABILITIES as readonly string[]).includes(value);
}

/** A set of capabilities as bits, so that merging rules of several policies is a bitwise OR. */
export type CapabilityMask = number;

export function bitOf(capability: PolicyCapability): CapabilityMask {
  return 1 << POLICY_CAPABILITIES.indexOf(capability);
}

export const DENY: CapabilityMask = bitOf('deny');

/**
 * Granted with `list` by a policy that never names `scan`: such a policy was written before recursive listings existed,
 * and its author meant "may enumerate these names", which a SCAN does too. Never reported as a capability of its own.
 */
export const SCAN_BY_LIST: CapabilityMask = 1 << POLICY_CAPABILITIES.length;

/** The mask a rule contributes: `scan` rides along with `list` unless the rule's policy mentions `scan` anywhere. */
export function ruleMask(capabilities: readonly PolicyCapability[], policyNamesScan: boolean): CapabilityMask {
  const mask = maskOf(capabilities);
  return !policyNamesScan && mask & bitOf('list') ? mask | SCAN_BY_LIST : mask;
}

/** The bits of a rule's capabilities. Rules built by hand (not by parsePolicy) are checked here too. */
export function maskOf(capabilities: readonly PolicyCapability[]): CapabilityMask {
  const unknown = capabilities.find((capability) => !isPolicyCapability(capability));
  if (unknown !== undefined) throw new InvalidRequest(`invalid capability ${JSON.stringify(unknown)}`);
  return capabilities.reduce((mask, capability) => mask | bitOf(capability), 0);
}

/**
 * Merges the rules that several policies (or one policy twice, or one rule alone) give the same path: a deny anywhere
 * wins and keeps nothing else (Vault drops the other capabilities of a rule that lists `deny`), otherwise the
 * capabilities add up. Every rule passes through here, so no mask holds `deny` with anything else.
 */
export function mergeMasks(current: CapabilityMask | undefined, added: CapabilityMask): CapabilityMask {
  const merged = (current ?? 0) | added;
  return merged & DENY ? DENY : merged;
}

// The order in which Vault's capabilities endpoints report them.
const REPORT_ORDER: readonly RequiredCapability[] = [
  'sudo',
  'read',
  'list',
  'update',
  'delete',
  'create',
  'patch',
  'scan',
];

/** The granted capabilities in the order Vault reports them, or `['deny']` when none is granted. */
export function reportCapabilities(granted: (capability: RequiredCapability) => boolean): PolicyCapability[] {
  const reported = REPORT_ORDER.filter(granted);
  return reported.length > 0 ? reported : ['deny'];
}

// Vault's pre-0.5 `policy = "..."` shorthand, still accepted in path blocks.
const LEGACY_POLICY: Record<string, readonly PolicyCapability[]> = {
  deny: ['deny'],
  read: ['read', 'list'],
  write: ['create', 'read', 'update', 'delete', 'list'],
  sudo: ['create', 'read', 'update', 'delete', 'list', 'sudo'],
};

export function legacyPolicyCapabilities(policy: string): readonly PolicyCapability[] | undefined {
  return Object.prototype.hasOwnProperty.call(LEGACY_POLICY, policy) ? LEGACY_POLICY[policy] : undefined;
}
