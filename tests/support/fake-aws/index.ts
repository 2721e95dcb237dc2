// A fake AWS (EC2, IAM, STS Query APIs with SigV4 verification) and a fake IMDSv2, for tests of the cloud provider
// and for end-to-end login tests.
export { FakeAws, type FakeAwsRequest, type FakeFault } from './server.js';
export { FakeImds, type FakeImdsOptions, type FakeImdsRequest } from './imds.js';
export {
  FakeAwsError,
  type FakeUser,
  type FakeRole,
  type FakeInstance,
  type FakeInstanceProfile,
  type IssuedCredentials,
  type FakePartition,
} from './state.js';
export { verifySignature, readScope, type ReceivedRequest } from './sigv4.js';
export { listenLocally, type LocalServer } from './listen.js';
