import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { bool, int, str } from '../../core/framework/fields.js';
import { unchanged } from '../../core/store/stored-json.js';
import type { CapabilityCheck } from '../../core/framework/request.js';
import { recordedChange } from '../changes/recorded-change.js';
import type { StoredMetadata } from '../documents/head-document.js';
import type { Attribution } from '../rules/actors.js';
import { parseAsOf, stateAt } from '../rules/as-of.js';
import { findVersion, isHidden, softDelete } from '../rules/versions.js';
import { jsonEqual } from '../values/json-equal.js';
import { append } from './data-operations.js';
import { now, type KvContext } from './context.js';
import { holds, requireRights, type Authorize } from './key-moves.js';

/**
 * POST restore/<path>: brings a key, or every key below a folder, back to its state at a past time through the ordinary
 * write path (so each write is a change event, and check-and-set by construction). What "its state then" can be
 * known to be is rules/as-of.ts's.
 */

/** Keys one call restores at most: the answer lists each, so a huge folder goes page by page. */
export const RESTORE_PAGE = 1000;

export const restoreFields = z.object({
  as_of: str().optional().describe('The RFC 3339 time to restore to, at or before now; required.'),
  dry_run: bool().optional().meta({ description: 'Answer the same report and change nothing.', default: false }),
  after: str()
    .optional()
    .describe('For a folder: resume after this key (relative to the folder), the `next` of the previous answer.'),
  limit: int({ min: 1, max: RESTORE_PAGE })
    .optional()
    .meta({ description: 'For a folder: at most this many keys in this call.', default: RESTORE_PAGE }),
});
export type RestoreFields = z.output<typeof restoreFields>;

/** What a restore did (or, with dry_run, would do) to each key; paths are key paths of the engine. */
export interface RestoreReport {
  /** Keys given a new version equal to their data then. */
  restored: string[];
  /** Keys that had no readable data then, whose current version was soft-deleted. */
  deleted: string[];
  /** Keys whose readable state already matched (or that exist neither then nor now). */
  unchanged: string[];
  /**
   * Keys the caller may not restore (or that were removed meanwhile): nothing about them is told. A key whose name a
   * listing would not show the caller (a deny on `metadata/<key>`) is left out of the report altogether.
   */
  skipped: string[];
  /** Keys whose version current then is destroyed or pruned since: left as they are, since its data is gone. */
  destroyed: string[];
  dry_run: boolean;
  /** False when the folder has more keys: call again with `after: next`. */
  complete: boolean;
  next?: string;
}

/** How a key fared; `hidden`: skipped, and its name too is one a listing would not show the caller, so it is left out. */
type Outcome = 'restored' | 'deleted' | 'unchanged' | 'skipped' | 'destroyed' | 'hidden';

/** The readable state a key is brought back to: data, none, or data that is gone. */
type Target = { kind: 'data'; data: Record<string, unknown> } | { kind: 'none' } | { kind: 'gone' };

/** The rights a restore checks on each key: it reads the key, then writes it, as GET and POST data/<key> would. */
function keyRights(path: string): CapabilityCheck[] {
  return [
    { capability: 'read', path: `data/${path}` },
    { capability: 'update', path: `data/${path}` },
  ];
}

export class Restore {
  constructor(private readonly context: KvContext) {}

  /**
   * Restores the key at `path`, or the keys below it when it is a folder ('' or ending in '/'), one page of them, to
   * their state at `time` (`fields.as_of` when absent).
   */
  async run(
    path: string,
    fields: RestoreFields,
    authorize?: Authorize,
    by?: Attribution,
    time: string | Date | undefined = fields.as_of,
  ): Promise<RestoreReport> {
    if (time === undefined) throw new InvalidRequest('missing as_of: the time to restore to');
    const asOf = parseAsOf(time, now(this.context));
    const dryRun = fields.dry_run === true;
    const report: RestoreReport = {
      restored: [],
      deleted: [],
      unchanged: [],
      skipped: [],
      destroyed: [],
      dry_run: dryRun,
      complete: true,
    };
    const isFolder = path === '' || path.endsWith('/');
    if (!isFolder) await this.refuseFolderWithoutSlash(path, authorize);
    const keys = isFolder ? await this.page(path, fields, authorize, report) : [path];
    // In order, each key whole: an interrupted call leaves some keys restored and the rest as they were.
    for (const key of keys) {
      const outcome = await this.one(key, asOf, dryRun, authorize, by);
      if (outcome !== 'hidden') report[outcome].push(key);
    }
    return report;
  }

  /** A folder named without its '/' would restore nothing: a 400 says so, to a caller who may list it. */
  private async refuseFolderWithoutSlash(path: string, authorize: Authorize | undefined): Promise<void> {
    const { keys, pages } = this.context;
    if (await keys.exists(path)) return;
    if (!(await holds(authorize, [{ capability: 'list', path: `metadata/${path}/` }]))) return;
    if ((await pages.page(`${path}/`, { recursive: true, limit: 1 })).length === 0) return;
    throw new InvalidRequest(`${JSON.stringify(path)} is a folder: restore/${path}/ restores the keys below it`);
  }

  /** The keys of this call: enumerating a folder needs `list` on it, as a recursive delete does. */
  private async page(
    folder: string,
    fields: RestoreFields,
    authorize: Authorize | undefined,
    report: RestoreReport,
  ): Promise<string[]> {
    await requireRights(authorize, [{ capability: 'list', path: `metadata/${folder}` }]);
    const limit = fields.limit ?? RESTORE_PAGE;
    const names = await this.context.pages.page(folder, { recursive: true, after: fields.after, limit: limit + 1 });
    if (names.length > limit) {
      names.length = limit;
      report.complete = false;
      report.next = names[limit - 1];
    }
    return names.map((name) => folder + name);
  }

  private async one(
    path: string,
    asOf: number,
    dryRun: boolean,
    authorize: Authorize | undefined,
    by: Attribution | undefined,
  ): Promise<Outcome> {
    if (!(await holds(authorize, keyRights(path)))) {
      // The question a LIST asks of each name it shows (after the folder's own `list`): only a deny hides it.
      const named = await holds(authorize, [{ capability: 'list', path: `metadata/${path}`, listing: true }]);
      return named ? 'skipped' : 'hidden';
    }
    const target = await this.target(path, asOf);
    if (target.kind === 'gone') return 'destroyed';
    // A soft delete is what DELETE data/<key> does, which Vault's ACL grants by `delete` there.
    const mayDelete =
      target.kind === 'data' || (await holds(authorize, [{ capability: 'delete', path: `data/${path}` }]));
    const time = now(this.context);
    const { keys } = this.context;
    const decide = async (current: StoredMetadata | undefined): Promise<Outcome> => {
      const head = current && findVersion(current, current.current_version);
      const live = current && head && !isHidden(head, time) ? { current, head } : undefined;
      if (target.kind === 'none') return !live ? 'unchanged' : mayDelete ? 'deleted' : 'skipped';
      // Removed since the state then was read: writing would create a key the caller was not checked for.
      if (!current) return 'skipped';
      if (live && jsonEqual(await keys.data(path, live.current, live.head), target.data)) return 'unchanged';
      return 'restored';
    };
    if (dryRun) return keys.consistent(async () => decide(await keys.read(path)));
    const config = await this.context.config.read();
    const operation = target.kind === 'data' ? 'write' : 'delete';
    // The decision runs inside the key's change, which runs again when another process commits first: two restores
    // at once write one version, and the second finds the key unchanged.
    const { result } = await recordedChange(this.context, path, operation, async (current, stage) => {
      const outcome = await decide(current);
      if (!current || (outcome !== 'restored' && outcome !== 'deleted')) return { next: unchanged, result: outcome };
      if (target.kind === 'none') {
        const next = softDelete(current, [current.current_version], time, by?.('delete')) ?? unchanged;
        return { next, result: outcome };
      }
      const { limits } = this.context;
      const appended = await append(current, target.data, { time, config, stage, limits, actor: by?.('update') });
      return { next: appended.next, dropped: appended.dropped, result: outcome };
    });
    return result;
  }

  /** The key's readable state at `asOf`. */
  private target(path: string, asOf: number): Promise<Target> {
    const { keys } = this.context;
    return keys.consistent(async (): Promise<Target> => {
      const key = await keys.read(path);
      if (!key) return { kind: 'none' };
      const then = stateAt(key, await keys.versions(path, key), asOf, now(this.context));
      if (then.state === 'gone') return { kind: 'gone' };
      if (then.state !== 'live') return { kind: 'none' };
      return { kind: 'data', data: await keys.data(path, key, then.entry) };
    });
  }
}
