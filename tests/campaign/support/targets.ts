import { expect } from 'vitest';
import { ManualClock } from '../../../src/lib/clocks.js';
import { MemoryStorage } from '../../../src/adapters/storage/memory/memory-storage.js';
import { AuthEngine } from '../../../src/auth/auth-engine.js';
import { CloudUnavailable } from '../../../src/lib/errors.js';
import type { EngineRequest, EngineResponse } from '../../../src/core/framework/request.js';
import { KvEngine } from '../../../src/kv/index.js';
import { FakeCloud } from '../../support/fake-cloud.js';
import { AuditedStorage } from './storages.js';

/** The engines the hostile-input suites attack, seeded with objects to hit, and what every answer must look like. */

const PROTOTYPES: [string, object][] = [
  ['Object', Object.prototype],
  ['Array', Array.prototype],
  ['Function', Function.prototype],
  ['String', String.prototype],
];

export function prototypeState(): Record<string, string[]> {
  return Object.fromEntries(
    PROTOTYPES.map(([name, prototype]) => [name, Reflect.ownKeys(prototype).map(String).sort()]),
  );
}

/** 500 is a fault of the server side; nothing here injects one, so any is a bug. 502 only where the fake cloud answers. */
export const CLIENT_STATUSES = new Set([200, 202, 204, 400, 403, 404, 405, 415]);

export function expectWellFormed(response: EngineResponse, allowed: Set<number>): void {
  expect(allowed.has(response.status), JSON.stringify(response).slice(0, 300)).toBe(true);
  expect(() => JSON.stringify(response)).not.toThrow();
  const body = response.body as { errors?: unknown } | undefined;
  if (response.status >= 400 && response.status !== 404) {
    expect(Array.isArray(body?.errors)).toBe(true);
    const errors = body?.errors as unknown[];
    expect(errors.length).toBeGreaterThan(0);
    for (const message of errors) expect(typeof message === 'string' && message.length > 0).toBe(true);
  }
}

export interface Target {
  handle(request: EngineRequest): Promise<EngineResponse>;
  renew?(grant: unknown): Promise<EngineResponse>;
  cloud?: FakeCloud;
  audited: AuditedStorage;
  faults: unknown[];
}

export async function kvTarget(): Promise<Target> {
  const audited = new AuditedStorage(new MemoryStorage());
  const faults: unknown[] = [];
  const kv = new KvEngine({
    storage: audited,
    clock: new ManualClock('2026-03-01T12:00:00Z'),
    onInternalError: (error) => faults.push(error),
  });
  await kv.handle({ method: 'POST', path: 'data/web', body: { data: { password: 'p' } } });
  await kv.handle({ method: 'POST', path: 'data/a.b/c', body: { data: { nested: { x: [1] } } } });
  await kv.handle({ method: 'POST', path: 'metadata/web', body: { custom_metadata: { owner: 'ops' } } });
  return { handle: (request) => kv.handle(request), audited, faults };
}

export async function authTarget(): Promise<Target> {
  const audited = new AuditedStorage(new MemoryStorage());
  const faults: unknown[] = [];
  const cloud = new FakeCloud();
  cloud.addPrincipal('role', 'web');
  // The fake cloud's refusals (502) are reported too; only other faults count here.
  const onInternalError = (error: unknown) => (error instanceof CloudUnavailable ? undefined : faults.push(error));
  const auth = new AuthEngine({
    storage: audited,
    cloud,
    env: {},
    clock: new ManualClock('2026-03-01T12:00:00Z'),
    onInternalError,
  });
  const setup: EngineRequest[] = [
    {
      method: 'POST',
      path: 'role/web',
      body: { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/web' },
    },
    {
      method: 'POST',
      path: 'role/tagged',
      body: { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'VaultRole', token_policies: 'a,b' },
    },
    { method: 'POST', path: 'config/client', body: { access_key: 'AKIAEXAMPLE', secret_key: 'not-a-real-secret' } },
    { method: 'POST', path: 'config/sts/123456789012', body: { sts_role: 'arn:aws:iam::123456789012:role/reader' } },
  ];
  for (const request of setup) expect((await auth.handle(request)).status).toBeLessThan(300);
  const tag = await auth.handle({ method: 'POST', path: 'role/tagged/tag', body: { policies: 'a' } });
  const value = (tag.body as { data: { tag_value: string } }).data.tag_value;
  expect((await auth.handle({ method: 'POST', path: `roletag-denylist/${value}` })).status).toBe(204);
  return {
    handle: (request) => auth.handle(request),
    renew: (grant) => auth.renew(grant as never),
    cloud,
    audited,
    faults,
  };
}
