// Barrel of the ACL policy evaluator: parse Vault-style policies and answer the engines' `authorize` callback.
export { Acl, type AclRequest } from './acl.js';
export type { WrappingBounds } from './parameter-check.js';
export type { ParameterConstraints, ParameterValues } from './parameters.js';
export { parsePolicy, type PathRule, type NamedPolicy } from './policy.js';
export { POLICY_CAPABILITIES, type PolicyCapability, type RequiredCapability } from './capability.js';
export {
  ROOT_POLICY_NAME,
  DEFAULT_POLICY_NAME,
  DEFAULT_POLICY,
  sanitizePolicyNames,
  tokenPolicies,
} from './builtin-policies.js';
