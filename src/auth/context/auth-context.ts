import type { Clock } from '../../ports/clock.js';
import type { CloudProvider } from '../../ports/cloud.js';
import type { EngineRequest } from '../../core/framework/request.js';
import { KeyedMutex } from '../../core/store/lock.js';
import { reportInternalError } from '../../core/framework/request-for-log.js';
import { decodeJson, JsonStore, unchanged, type UpdateResult } from '../../core/store/stored-json.js';
import { systemClock } from '../../lib/clocks.js';
import { BackgroundJobs } from './background-jobs.js';
import { DEFAULT_MOUNT_MAX_TTL, type AuthEngineOptions } from './engine-options.js';
import { PrincipalArnCache } from './principal-arn-cache.js';
import type { DocumentFolder, StoredDocument } from './stored-document.js';

type Change<T> = (
  current: T | undefined,
) => T | undefined | typeof unchanged | Promise<T | undefined | typeof unchanged>;

/** The names of the documents in a folder listing; a name ending in '/' is a sub-folder. */
function documentNames(names: string[]): string[] {
  return names.filter((name) => !name.endsWith('/'));
}

/**
 * What every part of the auth method shares: the stored documents, the clock, the cloud port and the engine options.
 * Documents are read and written only through their definitions (stored-document.ts), so each is upgraded and checked
 * on every read and carries its format version on every write. Read-modify-writes go through `update`, which
 * serialises writers of one key in this process and commits through compareAndPut when the storage offers it, so
 * several engines stay exact.
 */
export class AuthContext {
  readonly clock: Clock;
  readonly cloud: CloudProvider;
  readonly env: Record<string, string | undefined>;
  readonly allowSha1Signatures: boolean;
  readonly mountMaxTtl: number;
  readonly jobs = new BackgroundJobs();
  /** Full ARNs of iam principals for wildcard bindings, shared by the logins of this engine. */
  readonly principalArns = new PrincipalArnCache();
  private readonly store: JsonStore;
  private readonly prefix: string;
  private readonly locks = new KeyedMutex();
  private readonly onInternalError: AuthEngineOptions['onInternalError'];

  constructor(options: AuthEngineOptions) {
    this.prefix = options.storagePrefix ?? 'auth/';
    this.store = new JsonStore(options.storage);
    this.clock = options.clock ?? systemClock;
    this.cloud = options.cloud;
    this.env = options.env ?? process.env;
    this.allowSha1Signatures = options.allowSha1Signatures ?? false;
    this.mountMaxTtl = options.mountMaxTtl ?? DEFAULT_MOUNT_MAX_TTL;
    this.onInternalError = options.onInternalError;
  }

  now(): Date {
    return this.clock.now();
  }

  // Returned rather than awaited (here and in `list`): every login reads through these, and each async layer that only
  // hands on a promise costs it several more microtask turns.
  read<T>(document: StoredDocument<T>): Promise<T | undefined> {
    const key = this.prefix + document.key;
    return this.store
      .getRaw(key)
      .then((bytes) => (bytes === undefined ? undefined : document.format.read(decodeJson(bytes, key), key)));
  }

  async has(document: StoredDocument<unknown>): Promise<boolean> {
    return (await this.store.getRaw(this.prefix + document.key)) !== undefined;
  }

  /** The names of the documents in the folder. */
  list(folder: DocumentFolder<unknown>): Promise<string[]> {
    return this.store.list(this.prefix + folder.folder).then(documentNames);
  }

  /** Read-modify-write of one document; `change` may run again on a conflict, so it must have no side effects. */
  async update<T>(document: StoredDocument<T>, change: Change<T>): Promise<UpdateResult<T>> {
    const key = this.prefix + document.key;
    const { format } = document;
    // Those of the run of `change` that committed: a run after a conflict replaces any earlier one's.
    let previous: T | undefined;
    let next: T | undefined | typeof unchanged;
    const stored = (answer: T | undefined | typeof unchanged) => {
      next = answer;
      return answer === undefined || answer === unchanged ? answer : format.write(answer);
    };
    const { written } = await this.locks.run(key, () =>
      this.store.update<unknown>(key, (raw) => {
        previous = raw === undefined ? undefined : format.read(raw, key);
        const answer = change(previous);
        return answer instanceof Promise ? answer.then(stored) : stored(answer);
      }),
    );
    return { previous, next: next === unchanged ? previous : next, written };
  }

  async delete(document: StoredDocument<unknown>): Promise<void> {
    const key = this.prefix + document.key;
    await this.locks.run(key, () => this.store.delete(key));
  }

  reportInternalError(error: unknown, request: EngineRequest): void {
    reportInternalError(this.onInternalError, error, request);
  }
}
