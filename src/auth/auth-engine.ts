import { checkStoragePrefix } from '../core/framework/path.js';
import { Dispatcher } from '../core/framework/router.js';
import type { AuthGrant, EngineRequest, EngineResponse } from '../core/framework/request.js';
import { AuthContext } from './context/auth-context.js';
import type { AuthEngineOptions } from './context/engine-options.js';
import { renew } from './login/renew.js';
import { authRoutes } from './paths/index.js';
import { PeriodicTidy } from './lists/tidy.js';

function checkOptions(options: AuthEngineOptions): void {
  if (!options || typeof options.storage !== 'object' || options.storage === null)
    throw new TypeError('AuthEngine needs a storage');
  if (typeof options.cloud !== 'object' || options.cloud === null)
    throw new TypeError('AuthEngine needs a cloud provider');
  const { mountMaxTtl, storagePrefix } = options;
  if (mountMaxTtl !== undefined && !(Number.isSafeInteger(mountMaxTtl) && mountMaxTtl > 0)) {
    throw new TypeError('mountMaxTtl must be a positive whole number of seconds');
  }
  if (storagePrefix !== undefined) checkStoragePrefix(storagePrefix);
}

/**
 * The cloud identity auth method's engine: one path table (administration and login), renewal of login grants, and
 * the background tidy of the access and deny lists. The public AuthMethod subclasses it with a default provider.
 */
export class AuthEngine {
  /**
   * The engine's shared state, which subclasses hand to the login flows (`AuthMethod.login`): an implementation
   * detail, not API.
   *
   * @internal
   */
  protected readonly context: AuthContext;
  private readonly dispatcher: Dispatcher;
  private readonly periodicTidy: PeriodicTidy;

  constructor(options: AuthEngineOptions) {
    checkOptions(options);
    this.context = new AuthContext(options);
    this.dispatcher = new Dispatcher(authRoutes(this.context), { onInternalError: options.onInternalError });
    this.periodicTidy = new PeriodicTidy(this.context);
  }

  /**
   * Serves one request of the wire API: administration (config, certificates, STS roles, roles, role tags, the deny and
   * access lists, tidy) and `POST login`. Never rejects: every failure is an answer with its status (400, 403, 404,
   * 405, 502; 500 for a server fault, which also goes to `onInternalError`).
   */
  handle(request: EngineRequest): Promise<EngineResponse> {
    return this.dispatcher.handle(request);
  }

  /**
   * Checks that a grant from `POST login` still stands and answers `200 {auth}` with the role's current lifetimes;
   * 403 when it no longer does, 502 when the cloud provider cannot be asked.
   */
  renew(grant: AuthGrant): Promise<EngineResponse> {
    return renew(this.context, grant);
  }

  /** Runs due background work: the tidy of both lists, at most once an hour unless disabled. */
  periodic(): Promise<void> {
    return this.periodicTidy.run();
  }

  /** Resolves once every background job started so far (a manual tidy) has finished. */
  idle(): Promise<void> {
    return this.context.jobs.idle();
  }
}
