// Audit devices seen from a test: what a file holds, entry by entry, in the few words a test compares, and an event
// to hand a device.
import { existsSync, readFileSync } from 'node:fs';
import type { AuditEvent } from '../../src/server/audit/audit-format.js';

/** The request paths of the entries in an audit file, `request:` or `response:` before each; none for no file. */
export function auditEntries(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; request: { path: string } })
    .map((entry) => `${entry.type}:${entry.request.path}`);
}

/** A read of `path` by nobody in particular, as the dispatcher hands it to the audit devices. */
export function readEvent(path: string): AuditEvent {
  return {
    time: new Date(),
    requestId: path,
    operation: 'read',
    path,
    mountType: 'kv',
    data: undefined,
    token: undefined,
    caller: undefined,
    remoteAddress: undefined,
    remotePort: undefined,
  };
}
