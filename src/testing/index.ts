// strongroom/testing: a fake AWS on a loopback port for users' test harnesses (and this project's own tests).
// Nothing else in the package imports this entry.
export { FakeAws, type FakeAwsRequest, type FakeFault } from './fake-aws/server.js';
export { FakeImds, type FakeImdsOptions, type FakeImdsRequest } from './fake-aws/imds.js';
export {
  FakeAwsError,
  type FakeUser,
  type FakeRole,
  type FakeInstance,
  type FakeInstanceProfile,
  type IssuedCredentials,
  type FakePartition,
} from './fake-aws/state.js';
export { verifySignature, readScope, type ReceivedRequest } from './fake-aws/sigv4.js';
export { listenLocally, type LocalServer } from './fake-aws/listen.js';
export {
  FakeContainerCredentials,
  type FakeContainerCredentialsOptions,
} from './fake-aws/container-credentials.js';
export {
  IdentityDocumentSigner,
  type IdentityDocumentFields,
  type SignedIdentityDocument,
} from './fake-aws/identity-document.js';
export * from './storage-conformance.js';
