import { ManualClock } from '../../src/lib/clocks.js';
import { AuthEngine } from '../../src/auth/auth-engine.js';
import type { AuthEngineOptions } from '../../src/auth/context/engine-options.js';
import type { EngineRequest, EngineResponse, HttpMethod } from '../../src/core/framework/request.js';
import type { Storage } from '../../src/ports/storage.js';
import { FakeCloud } from '../support/fake-cloud.js';
import { testStorage } from '../support/test-storage.js';

/** An AuthEngine over memory storage, a manual clock and the fake cloud, with short request helpers. */
export function adminHarness(options: Partial<AuthEngineOptions> & { storage?: Storage } = {}) {
  const storage = options.storage ?? testStorage();
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const cloud = new FakeCloud();
  const internalErrors: unknown[] = [];
  const engine = new AuthEngine({
    storage,
    clock,
    cloud,
    env: {},
    onInternalError: (error) => internalErrors.push(error),
    ...options,
  });
  const call = (method: HttpMethod, path: string, body?: unknown, extra: Partial<EngineRequest> = {}) =>
    engine.handle({ method, path, body, ...extra });
  return {
    engine,
    storage,
    clock,
    cloud,
    internalErrors,
    call,
    write: (path: string, body: unknown = {}) => call('POST', path, body),
    read: (path: string) => call('GET', path),
    list: (path: string) => call('LIST', path),
    remove: (path: string) => call('DELETE', path),
  };
}

export type AdminHarness = ReturnType<typeof adminHarness>;

export function dataOf(response: EngineResponse): Record<string, unknown> {
  const body = response.body as { data?: Record<string, unknown> } | undefined;
  if (!body?.data) throw new Error(`no data in ${JSON.stringify(response)}`);
  return body.data;
}

export function errorsOf(response: EngineResponse): string[] {
  return response.body?.errors ?? [];
}

export function warningsOf(response: EngineResponse): string[] {
  return response.body?.warnings ?? [];
}

/** The single error message of a failed response. */
export function errorOf(response: EngineResponse): string {
  const errors = errorsOf(response);
  if (errors.length !== 1) throw new Error(`expected one error in ${JSON.stringify(response)}`);
  return errors[0]!;
}

export const EC2_ROLE = { auth_type: 'ec2', bound_ami_id: 'ami-12345678' };
export const IAM_ROLE = { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*' };
