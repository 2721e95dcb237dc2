// An ec2 login proves one document: the content of its PKCS#7, or its `identity` with that document's `signature`.
// In 2026 SPIRE fixed the class of bug where a login verified one of them and read the instance from the other (a
// genuine PKCS#7 of the caller's own instance beside a forged `identity`). Every check here reads only the document the
// signature covers, and a body carrying a PKCS#7 together with either part of the other pair is refused outright, so
// no reader of the request (the login, the service's own logging or checks) can take the unsigned document for it.
import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../../src/lib/time.js';
import {
  accessListEntry,
  grantOf,
  IID_VERIFY_2018,
  loginHarness,
  refusalOf,
  sampleField,
  TELEPORT_2021,
  type Sample,
} from './login-harness.js';

const BOTH =
  'both pkcs7 and a tuple containing the instance identity document and its SHA256 RSA signature is supplied; provide only one';

/** A harness where the TELEPORT_2021 instance (the caller's own, say) may log in to role `web`. */
async function callerOwnInstance() {
  const h = loginHarness();
  h.seedSample(TELEPORT_2021);
  await h.role('web', { auth_type: 'ec2', bound_ami_id: [TELEPORT_2021.imageId, IID_VERIFY_2018.imageId] });
  return h;
}

describe('a login body carrying a PKCS#7 and a separate document', () => {
  const pkcs7 = sampleField(TELEPORT_2021, 'rsa2048');
  const otherDocument = sampleField(IID_VERIFY_2018, 'document');
  const otherSignature = sampleField(IID_VERIFY_2018, 'signature');
  const ownDocument = sampleField(TELEPORT_2021, 'document');

  it.each([
    [
      'identity (another instance)',
      { identity: otherDocument },
      'both pkcs7 and identity are supplied; provide only one',
    ],
    [
      'identity (the PKCS#7 content itself)',
      { identity: ownDocument },
      'both pkcs7 and identity are supplied; provide only one',
    ],
    ['signature', { signature: otherSignature }, 'both pkcs7 and signature are supplied; provide only one'],
    ['identity and signature', { identity: otherDocument, signature: otherSignature }, BOTH],
    ['identity that is not base64', { identity: '%%%' }, 'both pkcs7 and identity are supplied; provide only one'],
  ])('with %s is a 400, before anything is looked up or stored', async (_name, extra, message) => {
    const h = await callerOwnInstance();
    expect(refusalOf(await h.login({ role: 'web', pkcs7, ...extra }))).toEqual([400, message]);
    expect(h.cloud.calls).toEqual([]);
    expect(await accessListEntry(h, TELEPORT_2021.instanceId)).toBeUndefined();
    expect(await accessListEntry(h, IID_VERIFY_2018.instanceId)).toBeUndefined();
  });

  it('a PKCS#7 that is only whitespace still counts as sent', async () => {
    const h = await callerOwnInstance();
    expect(
      refusalOf(await h.login({ role: 'web', pkcs7: ' \n', identity: otherDocument, signature: otherSignature })),
    ).toEqual([400, BOTH]);
  });

  it('empty fields count as absent: pkcs7 with empty identity and signature, or identity and signature with empty pkcs7', async () => {
    const h = await callerOwnInstance();
    const viaPkcs7 = grantOf(await h.login({ role: 'web', pkcs7, identity: '', signature: '' }));
    expect(viaPkcs7.internal_data.instance_id).toBe(TELEPORT_2021.instanceId);

    h.seedSample(IID_VERIFY_2018);
    const viaSignature = grantOf(
      await h.login({ role: 'web', pkcs7: '', identity: otherDocument, signature: otherSignature }),
    );
    expect(viaSignature.internal_data.instance_id).toBe(IID_VERIFY_2018.instanceId);
  });
});

describe('every check reads the signed document', () => {
  /** Logs `sample` in with `body` and checks that everything the login used is the signed document's. */
  async function expectSignedDocumentUsed(sample: Sample, body: Record<string, string>) {
    const h = loginHarness();
    h.seedSample(sample);
    await h.write('config/identity', {
      ec2_alias: 'instance_id',
      ec2_metadata: 'account_id,ami_id,instance_id,region',
    });
    // No `role` field: the role is named after the signed document's AMI.
    await h.role(sample.imageId, {
      auth_type: 'ec2',
      bound_account_id: sample.accountId,
      bound_region: sample.region,
      bound_ami_id: sample.imageId,
    });
    const grant = grantOf(await h.login(body));
    const fields = {
      account_id: sample.accountId,
      ami_id: sample.imageId,
      instance_id: sample.instanceId,
      region: sample.region,
    };
    expect(grant.metadata).toMatchObject({ ...fields, role: sample.imageId });
    expect(grant.alias).toEqual({ name: sample.instanceId, metadata: fields });
    expect(grant.internal_data).toMatchObject({
      instance_id: sample.instanceId,
      account_id: sample.accountId,
      region: sample.region,
    });
    expect(
      h.cloud.callsTo('describeInstance').map((call) => [call.args, call.scope.region, call.scope.accountId]),
    ).toEqual([[[sample.instanceId], sample.region, sample.accountId]]);
    expect(await accessListEntry(h, sample.instanceId)).toMatchObject({
      pending_time: sample.pendingTime,
      creation_time: formatTimestamp(h.clock.now()),
    });
  }

  it('of a PKCS#7 (its attached content)', async () => {
    await expectSignedDocumentUsed(TELEPORT_2021, { pkcs7: sampleField(TELEPORT_2021, 'rsa2048') });
  });

  it('of an identity document with its detached signature', async () => {
    await expectSignedDocumentUsed(IID_VERIFY_2018, {
      identity: sampleField(IID_VERIFY_2018, 'document'),
      signature: sampleField(IID_VERIFY_2018, 'signature'),
    });
  });
});
