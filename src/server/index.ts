/** strongroom/server: both engines behind Vault's HTTP API, with durable tokens, ACL policies and an audit log. */
export { createServer, type ServerOptions, type StrongroomServer, type LogEntry } from './server.js';
export { canonicalPolicyName } from './policy-store.js';
export { createEngineHandler, type EngineHandlerOptions } from './engine-handler.js';
export type { ApiRequest } from './request.js';
export { acceptListMethod, ListMethodRewriter } from '../adapters/http/list-method.js';
