// Vault's flag syntax, which is Go's: `-name=value`, `-name value`, `--name` alike; a boolean takes no separate value;
// the first argument that is not a flag (or `--`) ends the flags, and `-` alone is an argument (stdin).
import { UsageError } from './errors.js';

/** What a flag holds: a string, a whole number, a switch, or a list (a flag given again adds to it). */
export type FlagKind = 'string' | 'int' | 'bool' | 'list';

/** The flags a command takes, by name (without dashes). */
export type FlagSpec = Readonly<Record<string, FlagKind>>;

/** A flag's value, by its kind. */
export type FlagValue = string | number | boolean | readonly string[];

/** The flags given, by name, and the arguments after them. */
export interface Parsed {
  readonly flags: Readonly<Record<string, FlagValue>>;
  readonly args: readonly string[];
}

const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

function valueOf(name: string, kind: FlagKind, raw: string, before: FlagValue | undefined): FlagValue {
  if (kind === 'string') return raw;
  if (kind === 'list') return [...((before as readonly string[] | undefined) ?? []), raw];
  if (kind === 'bool') {
    if (TRUE.has(raw)) return true;
    if (FALSE.has(raw)) return false;
    throw new UsageError(`invalid boolean value ${JSON.stringify(raw)} for -${name}`);
  }
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`invalid value ${JSON.stringify(raw)} for -${name}: a whole number`);
  return Number(raw);
}

/** Parses `args` by `spec`; an unknown flag or a bad value is a {@link UsageError}. */
export function parseFlags(args: readonly string[], spec: FlagSpec): Parsed {
  const flags: Record<string, FlagValue> = {};
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') {
      index++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    const body = arg.replace(/^--?/, '');
    const equals = body.indexOf('=');
    const name = equals < 0 ? body : body.slice(0, equals);
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!kind) throw new UsageError(`flag provided but not defined: -${name}`);
    if (equals >= 0) flags[name] = valueOf(name, kind, body.slice(equals + 1), flags[name]);
    else if (kind === 'bool') flags[name] = true;
    else {
      const next = args[++index];
      if (next === undefined) throw new UsageError(`flag needs an argument: -${name}`);
      flags[name] = valueOf(name, kind, next, flags[name]);
    }
  }
  return { flags, args: args.slice(index) };
}

/** Refuses fewer or more arguments than a command takes, in Vault's words. */
export function expectArgs(args: readonly string[], min: number, max = min): void {
  if (args.length < min) throw new UsageError(`Not enough arguments (expected ${min}, got ${args.length})`);
  if (args.length > max) throw new UsageError(`Too many arguments (expected ${max}, got ${args.length})`);
}
