/**
 * strongroom/server: both engines behind Vault's HTTP API, with durable tokens, ACL policies and an audit log.
 *
 * `createServer` is the whole server, to listen on its own or to mount in another HTTP stack; `createEngineHandler`
 * serves one engine alone, for a service that decides access itself; `acceptListMethod` lets a node:http server take
 * Vault's `LIST` method. docs/server.md describes what the server answers.
 *
 * @packageDocumentation
 */
export { createServer, type StrongroomServer } from './server.js';
export type { LogEntry, ServerOptions } from './server-options.js';
export type { LogLevel } from './log/log-level.js';
export type { WebhookDeliveryOptions } from './webhooks/delivery-options.js';
export { canonicalPolicyName } from './policies/policy-store.js';
export { createEngineHandler, type EngineHandlerOptions } from './http/engine-handler.js';
export type { ApiMethod, ApiRequest } from './http/request.js';
export { acceptListMethod, ListMethodRewriter } from '../adapters/http/list-method.js';
