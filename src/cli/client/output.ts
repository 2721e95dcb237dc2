// Vault's output formats: `table` (columns of keys and values under `== Title ==` headings), `json` (the server's
// answer as it came) and `-field=NAME` (that value alone, with no newline, as Vault prints it into a pipe).
import { LocalError, UsageError } from './errors.js';
import type { FlagSpec } from './flags.js';

/** Flags of every command that prints an answer. */
export const OUTPUT_FLAGS: FlagSpec = { format: 'string', field: 'string' };

/** The formats this command prints; Vault's yaml and pretty are not offered. */
export type Format = 'table' | 'json';

/** The `-format` asked for (`table` by default), or a {@link UsageError}. */
export function formatOf(flags: Readonly<Record<string, unknown>>): Format {
  const format = flags.format ?? 'table';
  if (format !== 'table' && format !== 'json')
    throw new UsageError(`Invalid output format: ${formatValue(format)} (table or json)`);
  return format;
}

/** A value as Vault's table prints it: Go's `%v` (`<nil>`, `[a b]`, `map[k:v]`). */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(formatValue).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([key, item]) => `${key}:${formatValue(item)}`).join(' ')}]`;
  }
  // What is left is a string, a number or a boolean: JSON gives numbers and booleans as Go prints them.
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Columns four spaces apart, as Vault's columnize lays them out; an empty string shows as `n/a`, as in Vault. */
export function columns(rows: ReadonlyArray<readonly unknown[]>): string {
  const cells = rows.map((row) => row.map((cell) => (cell === '' ? 'n/a' : formatValue(cell))));
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]! + 4)))
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

/** Columns under Vault's header (`Key  Value` over `---  -----`). */
export function table(rows: ReadonlyArray<readonly unknown[]>, header: readonly string[] = ['Key', 'Value']): string {
  return columns([header, header.map((name) => '-'.repeat(name.length)), ...rows]);
}

/** `== Title ==` over `width` columns: an even number of `=` (four at least) split either side, as Vault pads. */
export function heading(title: string, width: number): string {
  const signs = width - title.length - 2;
  const side = '='.repeat(signs <= 0 ? 2 : Math.ceil(signs / 2));
  return `${side} ${title} ${side}`;
}

/** A titled table of an object's keys, the heading as wide as the longest key, four spaces and `Value`. */
export function titledTable(title: string, data: Readonly<Record<string, unknown>> | undefined | null): string {
  const rows = rowsOf(data);
  const widest = Math.max(0, ...rows.map(([key]) => key.length));
  return `${heading(title, widest + 4 + 'Value'.length)}\n${table(rows)}`;
}

/** `== Title ==` over the path it names, as Vault heads a path. */
export function titledPath(title: string, path: string): string {
  return `${heading(title, path.length)}\n${path}`;
}

/** Sorted key/value rows of an object, Vault's order. */
export function rowsOf(data: Readonly<Record<string, unknown>> | undefined | null): [string, unknown][] {
  return Object.entries(data ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What a command has to show, in each format. */
export interface Shown {
  /** The server's answer, printed by `-format=json`. */
  readonly answer: unknown;
  /** The table text. */
  readonly table: () => string;
  /** Where `-field=NAME` looks. */
  readonly fields: () => Readonly<Record<string, unknown>>;
}

/** Prints `shown` as the flags ask: `-field` first, then `-format`. */
export function show(stdout: NodeJS.WritableStream, flags: Readonly<Record<string, unknown>>, shown: Shown): 0 {
  const format = formatOf(flags);
  const field = flags.field as string | undefined;
  if (field !== undefined) {
    const fields = shown.fields();
    const value = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (value === undefined || value === null) throw new LocalError(`Field "${field}" not present in secret`);
    stdout.write(typeof value === 'string' && format === 'table' ? value : JSON.stringify(value));
    return 0;
  }
  stdout.write(format === 'json' ? `${JSON.stringify(shown.answer, null, 2)}\n` : `${shown.table()}\n`);
  return 0;
}

/** Seconds as Vault prints a token's duration: `1h2m3s`, `∞` for none. */
export function humanDuration(seconds: number): string {
  if (!seconds) return '∞';
  const parts: [number, string][] = [
    [Math.floor(seconds / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'm'],
    [seconds % 60, 's'],
  ];
  return parts
    .filter(([amount]) => amount > 0)
    .map(([amount, unit]) => `${amount}${unit}`)
    .join('');
}

/** The fields of an `auth` block under Vault's names, for tables and `-field`. */
function authFields(auth: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    token: auth.client_token,
    token_accessor: auth.accessor,
    token_duration: humanDuration(Number(auth.lease_duration ?? 0)),
    token_renewable: auth.renewable,
    token_policies: auth.token_policies ?? auth.policies ?? [],
    identity_policies: auth.identity_policies ?? [],
    policies: auth.policies ?? [],
    ...Object.fromEntries(
      Object.entries((auth.metadata ?? {}) as Record<string, unknown>).map(([key, value]) => [
        `token_meta_${key}`,
        value,
      ]),
    ),
  };
}

/** Prints an answer that carries a token (`auth`): Vault's token table, its JSON, or one of its fields. */
export function showAuth(
  stdout: NodeJS.WritableStream,
  flags: Readonly<Record<string, unknown>>,
  answer: unknown,
  auth: Readonly<Record<string, unknown>> = {},
): 0 {
  return show(stdout, flags, {
    answer,
    table: () => table(Object.entries(authFields(auth))),
    fields: () => authFields(auth),
  });
}
