/** strongroom/server: both engines behind Vault's HTTP API, with durable tokens, ACL policies and an audit log. */
export { createServer, type ServerOptions, type StrongroomServer, type LogEntry } from './server.js';
export { canonicalPolicyName } from './policies/policy-store.js';
export { createEngineHandler, type EngineHandlerOptions } from './http/engine-handler.js';
export type { ApiRequest } from './http/request.js';
export { acceptListMethod, ListMethodRewriter } from '../adapters/http/list-method.js';
