// What an audit file holds, entry by entry, in the few words a test compares.
import { existsSync, readFileSync } from 'node:fs';

/** The request paths of the entries in an audit file, `request:` or `response:` before each; none for no file. */
export function auditEntries(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; request: { path: string } })
    .map((entry) => `${entry.type}:${entry.request.path}`);
}
