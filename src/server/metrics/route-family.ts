// A request's route family for the metrics: the mount or sys endpoint and its operation (`secret/data`,
// `auth/token/create`, `sys/policies`), never a secret's name, a token or anything else a client chose, so that the
// label takes a few dozen values at most.

const KV_OPERATIONS = new Set(['data', 'metadata', 'delete', 'undelete', 'destroy', 'subkeys', 'config']);
const TOKEN_OPERATIONS = ['create', 'lookup', 'renew', 'revoke', 'roles'];
const SYS_ENDPOINTS = new Set([
  'health',
  'seal-status',
  'init',
  'policies',
  'policy',
  'capabilities-self',
  'mounts',
  'auth',
  'audit',
  'audit-hash',
  'events',
  'internal',
  'metrics',
  'rotate',
  'key-status',
  'wrapping',
]);

/** The family of `path` (below /v1/, decoded). */
export function routeFamily(path: string): string {
  const [first, second = '', third = ''] = path.split('/');
  if (first === 'secret') return `secret/${KV_OPERATIONS.has(second) ? second : 'other'}`;
  if (first === 'sys') return `sys/${SYS_ENDPOINTS.has(second) ? second : 'other'}`;
  if (first === 'auth' && second === 'token') {
    const operation = TOKEN_OPERATIONS.find((name) => third.startsWith(name));
    return `auth/token/${operation ?? 'other'}`;
  }
  // The default AWS auth mounts: auth/aws/ (a new storage's) and auth/cloud/ (an older storage's); other auth mounts
  // have paths their operators chose, which stay out of the labels.
  if (first === 'auth' && (second === 'aws' || second === 'cloud'))
    return third === 'login' ? `auth/${second}/login` : `auth/${second}/other`;
  return 'other';
}

/** The status class of an answer: `2xx`, `4xx`, `5xx`, or `closed` when the client left before it. */
export function statusClass(status: number | undefined): string {
  return status === undefined ? 'closed' : `${Math.floor(status / 100)}xx`;
}

/** Which login a body is: iam (a signed GetCallerIdentity), ec2 (an identity document), or unknown. */
export function loginMethod(body: unknown): string {
  if (body === null || typeof body !== 'object') return 'unknown';
  if ('iam_http_request_method' in body || 'iam_request_url' in body) return 'iam';
  if ('pkcs7' in body || 'identity' in body || 'signature' in body) return 'ec2';
  return 'unknown';
}
