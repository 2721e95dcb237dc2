import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineRequest } from '../../src/core/framework/request.js';
import { AUTH_FIELDS, hostileRequest, KV_FIELDS, mutatedRequest } from './support/hostile.js';
import { CAMPAIGN_TIMEOUT, propertyRuns } from './support/scale.js';
import {
  authTarget,
  CLIENT_STATUSES,
  expectWellFormed,
  kvTarget,
  prototypeState,
  type Target,
} from './support/targets.js';

/**
 * Hostile input through handle(), for every path and method of both engines: whatever arrives, the answer is a 2xx or
 * a 4xx with a message (never a 500, never a rejected promise), no prototype is polluted, and no storage key the
 * engine touches could be misread by a storage that maps keys onto files or UTF-8 text.
 */

const KV = {
  roots: ['data', 'metadata', 'delete', 'undelete', 'destroy', 'subkeys', 'config', ''],
  names: ['web', 'a.b', 'c', 'a.b/c'],
  fields: KV_FIELDS,
};
const AUTH_ROOTS = [
  'config/client',
  'config/rotate-root',
  'config/identity',
  'config/certificate',
  'config/certificates',
  'config/sts',
  'config/tidy/identity-accesslist',
  'config/tidy/roletag-denylist',
  'config/tidy/roletag-blacklist',
  'tidy/identity-accesslist',
  'tidy/roletag-denylist',
  'tidy/identity-whitelist',
  'role',
  'role/web',
  'role/web/tag',
  'role/tagged/tag',
  'roles',
  'roletag-denylist',
  'roletag-blacklist',
  'identity-accesslist',
  'identity-whitelist',
];
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

const KV_TEMPLATES: EngineRequest[] = [
  { method: 'POST', path: 'data/web', body: { data: { a: 1 }, options: { cas: 1 } } },
  { method: 'PUT', path: 'data/new', body: { data: { a: 1 } } },
  { method: 'PATCH', path: 'data/web', headers: MERGE, body: { data: { b: 2 } } },
  {
    method: 'PATCH',
    path: 'data/web',
    headers: { 'Content-Type': 'application/json-patch+json' },
    body: { data: [{ op: 'add', path: '/c', value: 3 }] },
  },
  { method: 'GET', path: 'data/web', query: { version: '1' } },
  { method: 'GET', path: 'subkeys/a.b/c', query: { depth: '1' } },
  { method: 'DELETE', path: 'data/web' },
  { method: 'POST', path: 'delete/web', body: { versions: [1] } },
  { method: 'POST', path: 'undelete/web', body: { versions: [1] } },
  { method: 'POST', path: 'destroy/a.b/c', body: { versions: [1] } },
  { method: 'POST', path: 'metadata/web', body: { max_versions: 3, custom_metadata: { a: 'b' } } },
  { method: 'PATCH', path: 'metadata/web', headers: MERGE, body: { custom_metadata: { a: null } } },
  { method: 'LIST', path: 'metadata/', query: { after: 'a', limit: '2', exclude_deleted: 'true' } },
  { method: 'POST', path: 'config', body: { max_versions: 5, cas_required: false, delete_version_after: '1h' } },
];

const AUTH = {
  roots: AUTH_ROOTS,
  names: [
    'web',
    'tagged',
    'WEB',
    '123456789012',
    'i-0123456789abcdef0',
    'tag',
    'identity-accesslist',
    'roletag-denylist',
    'cert1',
  ],
  fields: AUTH_FIELDS,
};

const AUTH_TEMPLATES: EngineRequest[] = [
  {
    method: 'POST',
    path: 'config/client',
    body: { sts_region: 'us-east-1', allowed_sts_header_values: 'X-Foo', max_retries: 2 },
  },
  {
    method: 'POST',
    path: 'config/identity',
    body: { iam_alias: 'role_id', iam_metadata: ['client_arn'], ec2_metadata: 'default' },
  },
  { method: 'POST', path: 'config/certificate/cert1', body: { aws_public_cert: 'AAAA', type: 'pkcs7' } },
  {
    method: 'POST',
    path: 'config/sts/210987654321',
    body: { sts_role: 'arn:aws:iam::210987654321:role/x', external_id: 'e' },
  },
  { method: 'POST', path: 'config/tidy/roletag-denylist', body: { safety_buffer: '1h', disable_periodic_tidy: true } },
  { method: 'POST', path: 'tidy/identity-accesslist', body: { safety_buffer: '1h' } },
  {
    method: 'POST',
    path: 'role/ec2',
    body: { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'T', token_policies: 'a', token_ttl: '1h' },
  },
  {
    method: 'POST',
    path: 'role/iam',
    body: {
      auth_type: 'iam',
      bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*',
      resolve_aws_unique_ids: false,
    },
  },
  {
    method: 'POST',
    path: 'role/web',
    body: { token_bound_cidrs: '10.0.0.0/8', token_num_uses: 3, token_type: 'service' },
  },
  { method: 'POST', path: 'role/tagged/tag', body: { policies: 'a', max_ttl: '1h', instance_id: 'i-1' } },
  { method: 'POST', path: 'roletag-denylist/v1:abc:r=tagged:d=false:m=false:xyz' },
  { method: 'DELETE', path: 'identity-accesslist/i-0123456789abcdef0' },
  { method: 'POST', path: 'config/rotate-root' },
];

const engines: [string, () => Promise<Target>, fc.Arbitrary<EngineRequest>, Set<number>][] = [
  ['KvEngine', kvTarget, fc.oneof(hostileRequest(KV), mutatedRequest(KV_TEMPLATES, KV_FIELDS)), CLIENT_STATUSES],
  // The fake cloud refuses rotate-root's calls for the example key with a typed error: 502 is its honest answer.
  [
    'AuthEngine administration',
    authTarget,
    fc.oneof(hostileRequest(AUTH), mutatedRequest(AUTH_TEMPLATES, AUTH_FIELDS)),
    new Set([...CLIENT_STATUSES, 502]),
  ],
];

describe('hostile requests through handle()', () => {
  for (const [name, target, requests, allowed] of engines) {
    it(
      `${name}: always a 2xx or a 4xx with a message, no pollution, no unsafe storage key`,
      async () => {
        const engine = await target();
        const prototypes = prototypeState();
        await fc.assert(
          fc.asyncProperty(requests, async (request) => {
            // The engine's state carries over from run to run; only what this request adds is judged.
            const faults = engine.faults.length;
            const unsafe = engine.audited.unsafe.length;
            const response = await engine.handle(request);
            expectWellFormed(response, allowed);
            expect(prototypeState()).toEqual(prototypes);
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
            expect(engine.faults.slice(faults)).toEqual([]);
            expect(engine.audited.unsafe.slice(unsafe)).toEqual([]);
          }),
          propertyRuns(400, 20_000),
        );
      },
      CAMPAIGN_TIMEOUT,
    );
  }
});
