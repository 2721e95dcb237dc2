// Who a token's holder is, as Vault's request carries it to an engine: what KV records as created_by and deleted_by.
import { createHash } from 'node:crypto';
import type { RequestActor } from '../../core/framework/request.js';
import type { TokenRecord } from './token-record.js';

/** Vault's separators of a client id's input: between the sorted policies, and before the namespace. */
const POLICY_SEPARATOR = '\x7f';
const NAMESPACE_SEPARATOR = '\x00';
/** The id of Vault's root namespace, the only one strongroom has. */
const ROOT_NAMESPACE = 'root';

/**
 * The caller behind a token. Tokens here have no identity entity, so the client id is the one Vault gives a token
 * without one: SHA-256 over its sorted policies and its namespace's id, in base 64. A token's holder is told its
 * policies anyway, and the hash stands for them without naming them.
 */
export function tokenActor(record: TokenRecord): RequestActor {
  const input = [...record.policies].sort().join(POLICY_SEPARATOR) + NAMESPACE_SEPARATOR + ROOT_NAMESPACE;
  return {
    display_name: record.displayName,
    entity_id: '',
    client_id: createHash('sha256').update(input, 'utf8').digest('base64'),
  };
}
