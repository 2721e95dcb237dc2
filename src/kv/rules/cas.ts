import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { int, object } from '../../core/framework/fields.js';

/** Check-and-set: the `options.cas` of data writes and patches. */

const casNumber = int();

/** `cas` as Vault converts it: loosely to an integer, with `null` counting as 0. */
const casValue = z.unknown().transform((value, ctx): number => {
  if (value === null) return 0;
  const parsed = casNumber.safeParse(value);
  if (parsed.success) return parsed.data;
  ctx.issues.push({ code: 'custom', message: 'error parsing check-and-set parameter', input: value });
  return z.NEVER;
});

/** The `options` map; only `cas` is known. */
export const casOptions = object()
  .pipe(z.object({ cas: casValue.optional() }))
  .describe(
    "`{cas}`: the change applies only when `cas` is the key's current version (0: the key has none yet); required while `cas_required` holds.",
  );

export const CAS_MISMATCH = 'check-and-set parameter did not match the current version';
const CAS_REQUIRED = 'check-and-set parameter required for this call';

/**
 * A given cas must equal the current version (0 for a missing or metadata-only key; deletes and destroys never lower
 * it, so 0 fails on a soft-deleted key). Without one, the write passes unless the engine or the key requires cas.
 */
export function checkCas(cas: number | undefined, currentVersion: number, required: boolean): void {
  if (cas !== undefined) {
    if (cas !== currentVersion) throw new InvalidRequest(CAS_MISMATCH);
  } else if (required) {
    throw new InvalidRequest(CAS_REQUIRED);
  }
}
