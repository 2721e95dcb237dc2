// A minimal in-process CloudProvider for the login benchmarks: one running instance, one IAM role, and a canned STS
// answer, all returned at once, so that a login's own cost is what gets measured (the STS round trip is excluded).

export const ROLE_ARN = 'arn:aws:iam::123456789012:role/bench-iam';
const ROLE_UNIQUE_ID = 'AROABENCHROLE0000001';
const SESSION = 'bench-session';

const CALLER_IDENTITY = `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>arn:aws:sts::123456789012:assumed-role/bench-iam/${SESSION}</Arn>
    <UserId>${ROLE_UNIQUE_ID}:${SESSION}</UserId>
    <Account>123456789012</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata><RequestId>00000000-0000-0000-0000-000000000000</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>
`;

function unsupported(name) {
  return async () => {
    throw new Error(`${name} is not part of the benchmark`);
  };
}

/** `instance` is the InstanceDescription that describeInstance answers for its id. */
export function cloudDouble(instance) {
  const calls = { describeInstance: 0, forwardCallerIdentity: 0 };
  return {
    calls,
    async describeInstance(_scope, instanceId) {
      calls.describeInstance++;
      return instanceId === instance.instanceId ? { ...instance, tags: { ...instance.tags } } : undefined;
    },
    async getInstanceProfile() {
      return undefined;
    },
    async getPrincipal(_scope, arn) {
      return arn === ROLE_ARN ? { arn: ROLE_ARN, uniqueId: ROLE_UNIQUE_ID, type: 'role' } : undefined;
    },
    async forwardCallerIdentity() {
      calls.forwardCallerIdentity++;
      return { status: 200, headers: { 'content-type': 'text/xml' }, body: CALLER_IDENTITY };
    },
    async getCallerIdentity() {
      return {
        arn: 'arn:aws:iam::123456789012:user/strongroom',
        userId: 'AIDABENCHUSER0000001',
        accountId: '123456789012',
      };
    },
    getCurrentUser: unsupported('getCurrentUser'),
    listAccessKeys: unsupported('listAccessKeys'),
    createAccessKey: unsupported('createAccessKey'),
    deleteAccessKey: unsupported('deleteAccessKey'),
  };
}
