/**
 * strongroom/testing: a fake AWS on a loopback port for users' test harnesses (and this project's own tests), and the
 * conformance suite for Storage adapters. Nothing else in the package imports this entry.
 *
 * @packageDocumentation
 */
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
  type FakeKey,
  type KeyOwner,
} from './fake-aws/state.js';
export {
  verifySignature,
  readScope,
  type ReceivedRequest,
  type SignatureScope,
  type Verdict,
} from './fake-aws/sigv4.js';
export { listenLocally, type LocalServer } from './fake-aws/listen.js';
export { FakeContainerCredentials, type FakeContainerCredentialsOptions } from './fake-aws/container-credentials.js';
export {
  IdentityDocumentSigner,
  type IdentityDocumentFields,
  type SignedIdentityDocument,
} from './fake-aws/identity-document.js';
export { FakeKms, startFakeKms, type FakeKmsOptions, type FakeKmsCall, type RunningFakeKms } from './fake-aws/kms.js';
export * from './storage-conformance/suite.js';
