// What createServer answers: the server's whole surface for the process that embeds it.
import type http from 'node:http';
import type { AuthMethod } from '../adapters/aws/auth-method.js';
import type { KvEngine } from '../kv/index.js';

/** A server made by `createServer`: listen on its own, or mount its `handler` in another HTTP stack. */
export interface StrongroomServer {
  /** Starts listening (port 0 picks a free port); resolves to the base URL. */
  listen(address?: { port?: number; host?: string }): Promise<string>;
  /** Stops taking connections, finishes requests in flight, and after `graceMs` cuts whatever is left. */
  close(options?: { graceMs?: number }): Promise<void>;
  /**
   * The node:http request listener, for mounting in another server or framework. Requests outside `/v1/` go to
   * `next` when one is given (Express middleware style), else get a 404.
   */
  handler(req: http.IncomingMessage, res: http.ServerResponse, next?: (error?: unknown) => void): void;
  /**
   * Resolves once the stored state is ready; to the root token made by this call, if it made one. Without
   * the `rootToken` option, the first call makes a root token when the storage holds none yet: call it once
   * the server can be reached (after `listen()`), and show what it answers, since it is answered only this once.
   */
  ready(): Promise<string | undefined>;
  /**
   * Opens every audit device's file again by its path (what `strongroom server` does on SIGHUP): after a rotation moved
   * it, the next entries go to a new file. Answers the files reopened (none without an audit device); rejects when a
   * path cannot be opened, once the others are reopened: that device's writes fail until it can be.
   */
  reopenAuditFile(): Promise<string[]>;
  /**
   * Runs the due background work once: each AWS auth mount's tidy, each KV mount's sweep of versions past their
   * destroy_version_after, revoking expired tokens, removing expired wrapped answers.
   */
  runPeriodic(): Promise<void>;
  /** The KV engine served at `secret/`, for use in the same process. */
  readonly kv: KvEngine;
  /**
   * The default AWS auth method, for use in the same process: mounted at `auth/aws/`, or at `auth/cloud/` over a storage
   * that held its data there before the mount table (docs/server.md).
   */
  readonly auth: AuthMethod;
}
