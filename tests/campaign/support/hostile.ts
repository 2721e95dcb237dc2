import fc from 'fast-check';
import type { CapabilityCheck, EngineRequest } from '../../../src/core/framework/request.js';

/** fast-check arbitraries for hostile requests: wrong types, odd text, prototype keys, traversal, deep and huge JSON. */

/** Any UTF-16 code unit, lone surrogates included, as a JSON parser can produce from `\ud800` escapes. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

const ODD_TEXT = [
  '',
  ' ',
  '.',
  '..',
  '%2e%2e',
  '..%2f',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'a\u0000b',
  'a\r\nX-Injected: 1',
  '\uD800',
  'x\uDFFFy',
  'é',
  '💥',
  '\u202Egnp.exe',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '1h',
  '-5s',
  '99999999999999h',
  'true',
  'default',
  'ec2',
  'iam',
  'ec2_instance',
  '*',
  'arn:aws:iam::123456789012:role/*',
  'arn:aws:iam::123456789012:role/web',
  'arn:aws:iam::123456789012:instance-profile/../x',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'https://user:pass@sts.amazonaws.com/',
  'aHR0cDovLzE2OS4yNTQuMTY5LjI1NC8=',
  'QWN0aW9uPUdldENhbGxlcklkZW50aXR5JlZlcnNpb249MjAxMS0wNi0xNQ==',
  'PD94bWwgdmVyc2lvbj0iMS4wIj8+PCFET0NUWVBFIHg+',
  'not base64!',
  '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
  '-----BEGIN PKCS7-----\nMIAGCSqGSIb3DQEHAqCAMIACAQEx\n-----END PKCS7-----',
  'MIAGCSqGSIb3DQEHAqCAMIACAQEx',
  'POST',
  'GET',
  '{"Authorization":["AWS4-HMAC-SHA256 SignedHeaders=x-service-cloud-iam-server-id"]}',
  'v1:abc:r=../config/client:d=false:m=false:xyz',
  'v1:abc:r=web:d=false:m=false:p=a,b:t=999999999999:xyz',
  'i-0123456789abcdef0',
  '123456789012',
];

export const oddText = fc.oneof(
  { weight: 15, arbitrary: fc.constantFrom(...ODD_TEXT) },
  { weight: 8, arbitrary: fc.string({ unit: codeUnit, maxLength: 16 }) },
  { weight: 8, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(5000, 70_000).map((length) => 'x'.repeat(length)) },
);

const ODD_NUMBERS = [0, -0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 86400 * 365 * 1000];

/** JSON nested far deeper than any secret, built without recursion. */
function deeplyNested(depth: number, array: boolean): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = array ? [value] : { a: value };
  return value;
}

/** An object whose own keys are `__proto__`, `constructor`..., as JSON.parse builds it from a request body. */
function prototypeKeys(inner: unknown): unknown {
  return JSON.parse(`{"__proto__":${JSON.stringify(inner)},"constructor":{"prototype":${JSON.stringify(inner)}}}`);
}

export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 16, arbitrary: oddText },
  { weight: 6, arbitrary: fc.constantFrom(...ODD_NUMBERS) },
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 4, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 4, arbitrary: fc.array(oddText, { maxLength: 5 }) },
  { weight: 4, arbitrary: fc.dictionary(oddText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }).map(prototypeKeys) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(257, 300).chain((depth) => fc.boolean().map((array) => deeplyNested(depth, array))),
  },
);

export const KV_FIELDS = [
  'data',
  'options',
  'cas',
  'version',
  'versions',
  'max_versions',
  'cas_required',
  'delete_version_after',
  'custom_metadata',
  'after',
  'limit',
  'exclude_deleted',
  'depth',
  'list',
];

export const AUTH_FIELDS = [
  'access_key',
  'secret_key',
  'endpoint',
  'iam_endpoint',
  'sts_endpoint',
  'sts_region',
  'use_sts_region_from_client',
  'iam_server_id_header_value',
  'allowed_sts_header_values',
  'max_retries',
  'iam_alias',
  'ec2_alias',
  'iam_metadata',
  'ec2_metadata',
  'aws_public_cert',
  'type',
  'sts_role',
  'external_id',
  'safety_buffer',
  'disable_periodic_tidy',
  'auth_type',
  'bound_ami_id',
  'bound_account_id',
  'bound_region',
  'bound_vpc_id',
  'bound_subnet_id',
  'bound_iam_role_arn',
  'bound_iam_instance_profile_arn',
  'bound_ec2_instance_id',
  'bound_iam_principal_arn',
  'inferred_entity_type',
  'inferred_aws_region',
  'resolve_aws_unique_ids',
  'role_tag',
  'allow_instance_migration',
  'disallow_reauthentication',
  'token_ttl',
  'token_max_ttl',
  'token_period',
  'token_explicit_max_ttl',
  'token_policies',
  'token_bound_cidrs',
  'token_no_default_policy',
  'token_num_uses',
  'token_type',
  'policies',
  'ttl',
  'max_ttl',
  'period',
  'instance_id',
  'role',
  'pkcs7',
  'identity',
  'signature',
  'nonce',
  'iam_http_request_method',
  'iam_request_url',
  'iam_request_body',
  'iam_request_headers',
  'hmac_key',
  'role_id',
];

function fieldsOf(names: readonly string[]) {
  const name = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: oddText });
  return fc.oneof(
    { weight: 12, arbitrary: fc.dictionary(name, oddValue, { maxKeys: 4 }) },
    { weight: 1, arbitrary: oddValue },
    { weight: 1, arbitrary: fc.dictionary(name, oddValue, { maxKeys: 3 }).map(prototypeKeys) },
  );
}

const MEDIA_TYPES = [
  'application/merge-patch+json',
  'application/json-patch+json',
  'APPLICATION/MERGE-PATCH+JSON; charset=utf-8',
  'application/json',
  '',
  'text/xml',
];

const headers = fc.option(
  fc.dictionary(
    fc.oneof(fc.constantFrom('content-type', 'Content-Type', 'authorization', 'x-vault-token', '__proto__'), oddText),
    fc.oneof(fc.constantFrom(...MEDIA_TYPES), oddText, fc.array(fc.constantFrom(...MEDIA_TYPES), { maxLength: 2 })),
    { maxKeys: 3 },
  ),
  { nil: undefined },
);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'LIST', 'get', 'Patch'];
const ODD_METHODS = ['HEAD', 'OPTIONS', 'TRACE', '', 'GET '];

/** Capabilities the caller holds: all, none, or a seeded half (so that both sides of every check run). */
const authorize = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.constant(() => true) },
  { weight: 1, arbitrary: fc.constant(() => false) },
  {
    weight: 1,
    arbitrary: fc
      .nat()
      .map((seed) => (check: CapabilityCheck) => (check.path.length + check.capability.length + seed) % 2 === 0),
  },
);

/** Paths: an engine's roots followed by names of stored objects or hostile segments, or raw hostile text. */
export function hostilePath(roots: readonly string[], names: readonly string[]): fc.Arbitrary<string> {
  const segment = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 2, arbitrary: fc.stringMatching(/^[\w.-]{1,12}$/) },
    { weight: 1, arbitrary: oddText },
  );
  const joined = fc
    .tuple(fc.constantFrom(...roots), fc.array(segment, { maxLength: 2 }), fc.nat(4))
    .map(
      ([root, segments, slash]) =>
        [root, ...segments].filter((part) => part !== '').join('/') + (slash === 0 ? '/' : ''),
    );
  return fc.oneof(
    { weight: 30, arbitrary: joined },
    { weight: 2, arbitrary: oddText },
    { weight: 1, arbitrary: fc.constantFrom(4097, 20_000).map((length) => `data/${'a'.repeat(length)}`) },
  );
}

/** A request as a hostile or broken transport might build it: most parts well-formed, any part possibly not. */
export function hostileRequest(target: {
  roots: readonly string[];
  names: readonly string[];
  fields: readonly string[];
}): fc.Arbitrary<EngineRequest> {
  const fields = fieldsOf(target.fields);
  return fc
    .record({
      method: fc.oneof(
        { weight: 30, arbitrary: fc.constantFrom(...METHODS) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
        { weight: 1, arbitrary: oddValue },
      ),
      path: fc.oneof(
        { weight: 30, arbitrary: hostilePath(target.roots, target.names) },
        { weight: 1, arbitrary: oddValue },
      ),
      query: fc.option(
        fc.oneof({ weight: 4, arbitrary: fields }, { weight: 1, arbitrary: fc.constant({ list: 'true' }) }),
        { nil: undefined },
      ),
      body: fc.option(fields, { nil: undefined }),
      headers,
      remoteAddress: fc.option(fc.oneof(fc.constantFrom('10.0.0.1', '::1', '::ffff:10.0.0.1', '999.1.1.1'), oddText), {
        nil: undefined,
      }),
      authorize,
    })
    .map((request) => request as unknown as EngineRequest);
}

/**
 * A valid request with one part replaced by a hostile value: a body or query field (set, or added under an odd name),
 * which drives hostile values past routing into every handler's own checks.
 */
export function mutatedRequest(
  templates: readonly EngineRequest[],
  fieldNames: readonly string[],
): fc.Arbitrary<EngineRequest> {
  return fc
    .record({
      template: fc.constantFrom(...templates),
      field: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fieldNames) }, { weight: 1, arbitrary: oddText }),
      value: oddValue,
      inQuery: fc.nat(5).map((n) => n === 0),
    })
    .map(({ template, field, value, inQuery }) => {
      const place = (base: unknown) => {
        const copy: Record<string, unknown> = typeof base === 'object' && base !== null ? { ...base } : {};
        // A JSON parser makes "__proto__" an own key; so does defineProperty, where assignment would not.
        Object.defineProperty(copy, field, { value, enumerable: true, writable: true, configurable: true });
        return copy;
      };
      return inQuery
        ? { ...template, query: place(template.query) as EngineRequest['query'] }
        : { ...template, body: place(template.body) };
    });
}
