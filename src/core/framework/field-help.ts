import { z } from 'zod';
import { FIELD_TYPE, isPlainObject } from './fields.js';

/**
 * What a request field says about itself, as Vault's `framework.FieldSchema` does: its type, what it is for, its
 * default and whether it is a deprecated alias. A zod field carries it in zod's metadata where it is declared
 * (`.describe()`, `.meta({description, default, deprecated})`; the builders of fields.ts name the type), so that the
 * route tables of docs/ are read from the declarations and cannot drift from them.
 */
export interface FieldHelp {
  readonly type: string;
  readonly description?: string;
  /** The value a field left out stands for, where its declaration states one. */
  readonly default?: unknown;
  readonly deprecated?: boolean;
}

/** The schema a wrapper stands for: optional and nullable fields, and pipes (every `transform` is one), lead inward. */
function inner(schema: z.core.$ZodType): z.core.$ZodType | undefined {
  const def = schema._zod.def;
  if (def.type === 'optional' || def.type === 'nullable') return (def as z.core.$ZodOptionalDef).innerType;
  if (def.type === 'pipe') return (def as z.core.$ZodPipeDef).in;
  return undefined;
}

/** A field's help from its metadata; the outermost declaration of each item wins (an alias's wording over its base's). */
export function helpOf(schema: z.core.$ZodType): Partial<FieldHelp> {
  const help: { type?: string; description?: string; default?: unknown; deprecated?: boolean } = {};
  for (let at: z.core.$ZodType | undefined = schema; at; at = inner(at)) {
    const meta = z.globalRegistry.get(at);
    if (!meta) continue;
    const type = meta[FIELD_TYPE];
    if (help.type === undefined && typeof type === 'string') help.type = type;
    if (help.description === undefined && meta.description !== undefined) help.description = meta.description;
    if (!('default' in help) && 'default' in meta) help.default = meta.default;
    if (help.deprecated === undefined && meta.deprecated !== undefined) help.deprecated = meta.deprecated;
  }
  return help;
}

const NOTHING_IGNORED: readonly string[] = Object.freeze([]);

/**
 * Vault's warning for the request fields a path does not know, which it ignores: a misspelt name is otherwise silent.
 * Names are sorted and space-separated, as Go prints a list of strings.
 */
export function ignoredFieldsWarning(input: unknown, known: { has(name: string): boolean }): readonly string[] {
  if (!isPlainObject(input)) return NOTHING_IGNORED;
  let ignored: string[] | undefined;
  for (const name of Object.keys(input)) if (!known.has(name)) (ignored ??= []).push(name);
  return ignored ? [`Endpoint ignored these unrecognized parameters: [${ignored.sort().join(' ')}]`] : NOTHING_IGNORED;
}

/**
 * Vault's warning for request fields named like a parameter the path captures: the path's value is the one used, and
 * the caller is told that the field's own value was dropped.
 */
export function replacedFieldsWarning(input: unknown, params: Readonly<Record<string, string>>): readonly string[] {
  if (!isPlainObject(input)) return NOTHING_IGNORED;
  // The input's names are walked (most requests have none or a few), and the list is built only when a field is
  // replaced: nearly every request allocates nothing here.
  let replaced: string[] | undefined;
  for (const name of Object.keys(input)) if (Object.hasOwn(params, name)) (replaced ??= []).push(name);
  return replaced
    ? [
        `Endpoint replaced the value of these parameters with the values captured from the endpoint's path: [${replaced.sort().join(' ')}]`,
      ]
    : NOTHING_IGNORED;
}
