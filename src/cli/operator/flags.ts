// Vault's flag style for the operator commands: `-name=value`, `--name=value` too, `-name` alone for a switch; the
// other arguments are positional, in order.

/** A mistake in how the command was called: its message and the usage are printed, exit 1. */
export class UsageError extends Error {}

export interface ParsedArgs {
  flags: Map<string, string | true>;
  positional: string[];
}

/** Splits `args`; a flag not in `known` is a UsageError naming it. */
export function parseArgs(args: readonly string[], known: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (const arg of args) {
    const flag = /^--?([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(arg);
    if (!flag) {
      positional.push(arg);
      continue;
    }
    const [, name, value] = flag as unknown as [string, string, string | undefined];
    if (!known.includes(name)) throw new UsageError(`unknown flag -${name}`);
    flags.set(name, value ?? true);
  }
  return { flags, positional };
}

/** A flag's value as a positive integer, or `fallback` when it is not given. */
export function positiveInteger(flags: ParsedArgs['flags'], name: string, fallback: number): number {
  const value = flags.get(name);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (value === true || !Number.isInteger(number) || number < 1)
    throw new UsageError(`-${name} needs a positive whole number, as -${name}=100`);
  return number;
}
