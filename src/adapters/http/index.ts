// Barrel of the node:http adapter: what a Node service needs to serve Vault clients over node:http.
export { acceptListMethod, ListMethodRewriter } from './list-method.js';
