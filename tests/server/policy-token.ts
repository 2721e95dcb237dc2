// A token holding one policy, written first: what tests of the ACL over HTTP start from.
import { expect } from 'vitest';
import type { RawRequest, RawResponse } from './harness.js';

/** Writes the policy `name` with `policy` as root (through `asRoot`), then answers a new token holding it. */
export async function tokenWithPolicy(
  asRoot: (options: RawRequest) => Promise<RawResponse>,
  name: string,
  policy: string,
): Promise<string> {
  expect((await asRoot({ method: 'PUT', path: `/v1/sys/policies/acl/${name}`, body: { policy } })).status).toBe(204);
  const created = await asRoot({ method: 'POST', path: '/v1/auth/token/create', body: { policies: [name] } });
  expect(created.status).toBe(200);
  return created.json.auth.client_token as string;
}
