// Which engine a mount definition gets, by its kind. Each mount has its own engine over its own storage prefix; the two
// made before the table is read (createServer's `kv` and `auth`) serve the mounts whose data they hold.
import type { EngineRequest, EngineResponse } from '../../core/framework/request.js';
import type { Clock } from '../../ports/clock.js';
import type { Storage } from '../../ports/storage.js';
import { AuthMethod, type AuthMethodOptions } from '../../adapters/aws/auth-method.js';
import { KvEngine, KvV1Engine, upgradeKvV1ToV2, type KvEngineOptions } from '../../kv/index.js';
import {
  effectiveDefaultTtl,
  effectiveMaxTtl,
  kindOf,
  type EngineKind,
  type MountDefinition,
  type SystemTtls,
} from './mount-definition.js';

/** What a mount's requests go to. */
export interface MountedEngine {
  handle(request: EngineRequest): Promise<EngineResponse>;
}

/** What every engine is made with: the server's storage, clock and fault report, and the caller's engine options. */
export interface EngineContext {
  storage: Storage;
  clock: Clock;
  onInternalError: (error: unknown) => void;
  maxValueBytes: number;
  kvOptions?: Partial<KvEngineOptions> | undefined;
  authOptions: Partial<AuthMethodOptions>;
  system: SystemTtls;
}

type Maker = (definition: MountDefinition) => MountedEngine;

/**
 * Makes, and remembers, the engine of each definition: the same storage prefix, kind and TTL ceiling keep one engine
 * (a remount or a description change keeps it; a KV version upgrade or a tuned auth TTL makes another).
 */
export class EngineFactory {
  readonly #makers: Record<EngineKind, Maker>;
  readonly #storage: Storage;
  readonly #clock: Clock;
  readonly #engines = new Map<string, MountedEngine>();
  /** The engine of the first KV mount (`secret/` at first), made at once: createServer's `kv`. */
  readonly kv: KvEngine;
  /** The engine of the first AWS auth mount (data under `auth/cloud/`), made at once: createServer's `auth`. */
  readonly auth: AuthMethod;

  constructor(context: EngineContext) {
    const { storage, clock, onInternalError, maxValueBytes, kvOptions, authOptions, system } = context;
    // One storage, a key prefix per mount, as Vault gives each mount its own storage view. The caller's options come
    // after the server's, as they always did, except where each mount keeps its own.
    const kvAt = (storagePrefix: string) =>
      new KvEngine({ clock, onInternalError, maxValueBytes, ...kvOptions, storage, storagePrefix });
    const authAt = (storagePrefix: string, mountMaxTtl: number) =>
      new AuthMethod({ clock, onInternalError, ...authOptions, storage, storagePrefix, mountMaxTtl });
    this.kv = kvAt('secret/');
    this.auth = authAt('auth/cloud/', system.maxLeaseTtl);
    this.#makers = {
      'kv-v2': ({ storagePrefix }) => (storagePrefix === 'secret/' ? this.kv : kvAt(storagePrefix)),
      // `auth` serves its mount until that mount's max TTL is tuned: the TTL is fixed when an engine is made.
      aws: (definition) =>
        definition.storagePrefix === 'auth/cloud/' && definition.maxLeaseTtl === 0
          ? this.auth
          : authAt(definition.storagePrefix, effectiveMaxTtl(definition, system)),
      // A version 1 read answers its lease from the mount's default TTL, so a tuned default makes another engine.
      'kv-v1': (definition) =>
        new KvV1Engine({
          clock,
          onInternalError,
          maxValueBytes,
          storage,
          storagePrefix: definition.storagePrefix,
          defaultLeaseTtl: effectiveDefaultTtl(definition, system),
        }),
    };
    this.#storage = storage;
    this.#clock = clock;
  }

  /** Rewrites the KV version 1 data below `storagePrefix` as version 2 (resumable, and a no-op once done). */
  async upgradeKv(storagePrefix: string): Promise<void> {
    await upgradeKvV1ToV2({ storage: this.#storage, storagePrefix, clock: this.#clock });
  }

  /** The engine of `definition`, made on first use. */
  engineFor(definition: MountDefinition): MountedEngine {
    const key = this.#keyOf(definition);
    let engine = this.#engines.get(key);
    if (!engine) {
      engine = this.#makers[kindOf(definition)](definition);
      this.#engines.set(key, engine);
    }
    return engine;
  }

  /** Forgets, and stops, the engines no definition of `live` uses any more (their mounts were removed or changed). */
  async retain(live: readonly MountDefinition[]): Promise<void> {
    const keep = new Set(live.map((definition) => this.#keyOf(definition)));
    for (const [key, engine] of this.#engines) {
      if (keep.has(key)) continue;
      this.#engines.delete(key);
      // Requests already on it finish there; only its watch of other processes' changes stops.
      if (engine instanceof KvEngine && engine !== this.kv) await engine.stopWatching();
    }
  }

  #keyOf(definition: MountDefinition): string {
    const kind = kindOf(definition);
    const ttl = kind === 'aws' ? definition.maxLeaseTtl : kind === 'kv-v1' ? definition.defaultLeaseTtl : 0;
    return `${kind}|${ttl}|${definition.storagePrefix}`;
  }
}
