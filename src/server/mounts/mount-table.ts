// The live mount table: the stored definitions with their engines, read through on every request that may reach a
// mount (one small storage read while nothing changed), and the changes sys/mounts, sys/auth and sys/remount make.
import { randomUUID } from 'node:crypto';
import { sameBytes } from '../../lib/bytes.js';
import { InvalidRequest } from '../../lib/errors.js';
import type { Storage } from '../../ports/storage.js';
import { AuthMethod } from '../../adapters/aws/auth-method.js';
import { defaultMounts, newAccessor, storagePrefixFor } from './default-mounts.js';
import type { EngineFactory, MountedEngine } from './engine-factory.js';
import { isAuthMount, type MountDefinition } from './mount-definition.js';
import { checkCleanPath, checkMountPath } from './mount-paths.js';
import type { MountTableStore, StoredTable } from './mount-table-store.js';
import { checkTtls, tunedDefinition, upgradesKv, type MountTuning } from './mount-tuning.js';

/** A mount with its engine: where requests below `prefix` go, with the prefix removed. */
export interface Mount {
  prefix: string;
  /** What sys/mounts reports, e.g. `kv`; the audit log's mount type. */
  type: string;
  definition: MountDefinition;
  engine: MountedEngine;
  /** Set on auth methods: a login grant becomes a token whose display name starts with this (Vault's mount path). */
  tokenIssuer?: string;
}

/** A new mount, as sys/mounts/:path or sys/auth/:path asks for it. */
export type NewMount = Pick<
  MountDefinition,
  'path' | 'type' | 'description' | 'options' | 'defaultLeaseTtl' | 'maxLeaseTtl'
>;

const issuerOf = (path: string) => path.slice('auth/'.length, -1).replaceAll('/', '-');
/** Reloads one request may wait for while other processes keep changing the table. */
const MAX_RELOADS = 3;

export class MountTable {
  #cached: { version: Uint8Array; mounts: readonly Mount[] } | undefined;
  #loading: Promise<void> | undefined;
  /** This process's changes, one at a time: the store retries only against other processes. */
  #changes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: MountTableStore,
    private readonly engines: EngineFactory,
    private readonly storage: Storage,
  ) {}

  /**
   * The upgrade step: an absent table is written as the defaults (default-mounts.ts), once, by whichever process comes
   * first. Then the table is read, so that the first request finds it ready.
   */
  async initialise(): Promise<void> {
    await this.#writeDefaults();
    await this.current();
  }

  async #writeDefaults(): Promise<void> {
    const defaults = await defaultMounts(this.storage);
    await this.store.change((table) => (table ? undefined : { put: defaults }));
  }

  /**
   * The mounts as stored now. While the storage cannot be read, the table last read serves: the engine's own storage
   * call then reports the outage as it would have without the table.
   */
  current(): Promise<readonly Mount[]> {
    return this.store.version().then(
      // The table in hand, as it nearly always is, costs no async step of its own: every request to a mount asks.
      (version) => this.#inHand(version) ?? this.#reloaded(version),
      (error: unknown) => {
        if (this.#cached) return this.#cached.mounts;
        throw error;
      },
    );
  }

  /** The mounts last loaded, when they are the table stored as `version`. */
  #inHand(version: Uint8Array | undefined): readonly Mount[] | undefined {
    const cached = this.#cached;
    return cached && version && sameBytes(cached.version, version) ? cached.mounts : undefined;
  }

  /** The mounts once the table of `version` (or a newer one) is loaded. */
  async #reloaded(version: Uint8Array | undefined): Promise<readonly Mount[]> {
    for (let attempt = 0; attempt < MAX_RELOADS; attempt++) {
      const mounts = this.#inHand(version);
      if (mounts) return mounts;
      // A reload already running may have read an older version: it is waited for, then checked again.
      await (this.#loading ??= this.#reload().finally(() => (this.#loading = undefined)));
    }
    return this.#cached!.mounts;
  }

  /** The mount whose path `path` (a request path, below /v1/) lies in. */
  find(path: string): Promise<Mount | undefined> {
    return this.current().then((mounts) => mounts.find((mount) => path.startsWith(mount.prefix)));
  }

  /** The AWS auth method mounted where `path` lies (a token's issuing path, say). */
  async authMethodAt(path: string): Promise<AuthMethod | undefined> {
    const engine = (await this.find(path))?.engine;
    return engine instanceof AuthMethod ? engine : undefined;
  }

  /** The mount at exactly `path` (normalised), or the one `path` lies in. */
  async definitionAt(path: string): Promise<MountDefinition | undefined> {
    return (await this.current()).find((mount) => path.startsWith(mount.prefix))?.definition;
  }

  async enable(wanted: NewMount): Promise<void> {
    checkTtls(wanted.defaultLeaseTtl, wanted.maxLeaseTtl);
    await this.#change((table) => {
      checkMountPath(wanted.path, table.definitions);
      const uuid = randomUUID();
      const auth = isAuthMount(wanted);
      const definition = {
        ...wanted,
        uuid,
        accessor: newAccessor(wanted.type, auth),
        storagePrefix: storagePrefixFor(uuid, auth),
      };
      return { put: [definition] };
    });
  }

  /** Removes the mount at exactly `path`, then its data; nothing when there is none (Vault answers 204 alike). */
  async disable(path: string): Promise<void> {
    const edit = await this.#change((table) => {
      const gone = table.definitions.find((definition) => definition.path === path);
      return gone ? { remove: [gone.uuid], gone } : undefined;
    });
    // After the table no longer names it: a crash in between leaves data no mount reads, never a mount half erased.
    if (edit) await this.store.erase(edit.gone.storagePrefix);
  }

  async tune(path: string, tuning: MountTuning): Promise<void> {
    const found = await this.definitionAt(path);
    if (!found) throw new InvalidRequest(`tune of path ${JSON.stringify(path)} failed: no mount entry found`);
    // The data is rewritten before the table says version 2, so that no version 2 engine reads version 1 data.
    const upgrading = upgradesKv(found, tuning);
    if (upgrading) await this.engines.upgradeKv(found.storagePrefix);
    await this.#change((table) => {
      const current = table.definitions.find((definition) => definition.uuid === found.uuid);
      if (!current) throw new InvalidRequest(`tune of path ${JSON.stringify(path)} failed: no mount entry found`);
      return { put: [tunedDefinition(current, tuning)] };
    });
    // A version 1 write that landed between the first pass and the table's change is moved too, as its key's next
    // version: the upgrade resumes where it left off and skips what is done.
    if (upgrading) await this.engines.upgradeKv(found.storagePrefix);
  }

  /** Moves the mount at `from` to `to`: its data goes with it, as it lives by the mount's uuid, not its path. */
  async remount(from: string, to: string): Promise<void> {
    checkCleanPath(from);
    checkCleanPath(to);
    await this.#change((table) => {
      const moving = table.definitions.find((definition) => definition.path === from);
      if (!moving) throw new InvalidRequest(`no matching mount at ${JSON.stringify(from)}`);
      if (isAuthMount(moving) !== isAuthMount({ path: to })) {
        throw new InvalidRequest(
          isAuthMount(moving)
            ? `cannot remount auth mount to non-auth mount ${JSON.stringify(to)}`
            : `cannot remount to destination ${JSON.stringify(to)}`,
        );
      }
      checkMountPath(
        to,
        table.definitions.filter((definition) => definition !== moving),
      );
      return { put: [{ ...moving, path: to }] };
    });
  }

  #change<T extends { put?: readonly MountDefinition[]; remove?: readonly string[] }>(
    edit: (table: StoredTable) => T | undefined,
  ): Promise<T | undefined> {
    const run = this.#changes.then(() =>
      this.store.change((table) => {
        if (!table) throw new InvalidRequest('the mount table is not initialised yet');
        return edit(table);
      }),
    );
    this.#changes = run.catch(() => undefined);
    return run;
  }

  async #reload(): Promise<void> {
    let table = await this.store.load();
    if (!table) {
      await this.#writeDefaults();
      table = await this.store.load();
    }
    const { version, definitions } = table!;
    const mounts = definitions
      .map((definition): Mount => ({
        prefix: definition.path,
        type: definition.type,
        definition,
        engine: this.engines.engineFor(definition),
        ...(isAuthMount(definition) ? { tokenIssuer: issuerOf(definition.path) } : {}),
      }))
      // The longest prefix first, so that the first match is the mount a path lies in.
      .sort((a, b) => b.prefix.length - a.prefix.length);
    this.#cached = { version, mounts };
    await this.engines.retain(definitions);
  }
}
