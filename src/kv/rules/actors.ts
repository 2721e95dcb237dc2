import type { EngineRequest, RequestActor } from '../../core/framework/request.js';
import type { StoredActor } from '../documents/head-document.js';

/**
 * Who made a change, as Vault 1.21 records it: `created_by` on each version written, `deleted_by` on each version a
 * caller soft-deletes (cleared again by an undelete), and `last_updated_by` on the key for each of those changes. The
 * actor is the caller's display name, with its entity and client ids and the operation: Vault's own operation names
 * (`create` or `update` for a write, `patch`, `delete` for DELETE data/, `update` for POST delete/, `undelete`).
 */

/** The actor of a change, given its operation; a change made with none records nothing. */
export type Attribution = (operation: string) => StoredActor;

/** What an actor of Vault's answers shows of a caller: each empty field is left out, as Vault leaves it out. */
export function actorOf(caller: RequestActor, operation: string): StoredActor {
  const actor: StoredActor = { operation };
  if (caller.display_name !== '') actor.actor = caller.display_name;
  if (caller.entity_id !== '') actor.entity_id = caller.entity_id;
  if (caller.client_id !== '') actor.client_id = caller.client_id;
  return actor;
}

/** The attribution of a request's change: its caller, when the transport says who that is. */
export async function attributionOf(request: Pick<EngineRequest, 'actor'>): Promise<Attribution | undefined> {
  const caller = await request.actor?.();
  return caller && ((operation) => actorOf(caller, operation));
}
