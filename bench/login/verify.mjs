// The rsa2048 PKCS#7 verification of ec2 logins against its limit, a bare crypto.verify of the same signature, and
// against pkijs verifying the same document.
import { readFileSync } from 'node:fs';
import { constants, hash, publicDecrypt, verify, webcrypto, X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';
import { z } from 'zod';
import { AuthMethod, InvalidRequest, MemoryStorage } from 'strongroom';
import { BUILTIN_CERTIFICATES, parseIdentityDocument, verifyPkcs7 } from '../harness/internals.mjs';
import { batched, batchedSync, compare } from '../harness/harness.mjs';

const SAMPLE = new URL('../../fixtures/aws-iid-samples/teleport-us-west-2-2021/', import.meta.url);
const BATCH = 100;

export function sample() {
  return {
    rsa2048: readFileSync(new URL('rsa2048', SAMPLE), 'utf8'),
    certificate: readFileSync(new URL('cert-rsa2048-us-west-2.pem', SAMPLE), 'utf8'),
    document: JSON.parse(readFileSync(new URL('document', SAMPLE), 'utf8')),
  };
}

pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto }));

function pkijsSignedData(der, certificateDer) {
  const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(der).content });
  // The metadata service embeds no certificate; pkijs finds the signer among the ones it is given.
  signedData.certificates = [pkijs.Certificate.fromBER(certificateDer)];
  return signedData;
}

/** What crypto.verify needs, taken apart once: the DER of the signed attributes (as a SET) and the signature. */
function signatureParts(der, certificateDer) {
  const [signer] = pkijsSignedData(der, certificateDer).signerInfos;
  return {
    signed: Buffer.from(signer.signedAttrs.encodedValue),
    signature: Buffer.from(signer.signature.valueBlock.valueHexView),
  };
}

// What an ec2 login trusts without registered certificates: the built-in pkcs7-type ones.
export const PKCS7_TRUSTED = BUILTIN_CERTIFICATES.filter((certificate) => certificate.type === 'pkcs7');

/**
 * An ec2 login through handle() that stops right after its signature verdict: the genuine document verifies, then the
 * role it names does not exist, which the login reads only once the caller is authenticated (a 400 naming the role).
 * So the row times request parsing, base64, the certificate list, the CMS walk, the RSA check and the document's
 * parse, and no cloud call or storage write (those belong to the end-to-end login row).
 */
export async function ec2Verdict() {
  const { rsa2048 } = sample();
  const auth = new AuthMethod({ storage: new MemoryStorage(), env: {} });
  const body = { role: 'absent-role', pkcs7: rsa2048.replace(/\s+/g, '') };
  // Checked without serialising the answer each time: a 400 whose one error is exactly the role's refusal.
  const expected = 'entry for role "absent-role" not found';
  const login = async () => {
    const response = await auth.handle({ method: 'POST', path: 'login', body });
    const errors = response.body?.errors;
    if (response.status !== 400 || errors?.length !== 1 || errors[0] !== expected) {
      throw new Error(`unexpected verdict: ${response.status} ${JSON.stringify(response.body)}`);
    }
  };
  // The same login with one signature byte changed must be refused by the signature check (403), not by the role.
  const tampered = Buffer.from(body.pkcs7, 'base64');
  tampered[tampered.length - 10] ^= 1;
  const refused = await auth.handle({
    method: 'POST',
    path: 'login',
    body: { ...body, pkcs7: tampered.toString('base64') },
  });
  if (refused.status !== 403)
    throw new Error(`a tampered signature was not refused: ${refused.status} ${JSON.stringify(refused.body)}`);
  await login();
  return login;
}

/**
 * The work no ec2 verdict can skip, with nothing around it: the field's base64 decoded, the content and the signed
 * attributes hashed, the bare RSA operation, the document's JSON parsed. Its ratio to the bare verify bounds the verdict
 * row from above; the difference between the two is all that is left for the request, the strict DER walk, the trust
 * lookup, the checks of the signed attributes and of the document's fields, and the role lookup.
 */
function verdictFloor(rsa2048, publicKey, signed, signature) {
  const der = Buffer.from(rsa2048, 'base64');
  const { content } = verifyPkcs7(rsa2048, PKCS7_TRUSTED);
  const start = der.indexOf(content);
  if (start < 0) throw new Error('content not found in the document');
  const end = start + content.length;
  const decryption = { key: publicKey, padding: constants.RSA_NO_PADDING };
  return () => {
    const bytes = Buffer.from(rsa2048, 'base64');
    hash('sha256', bytes.subarray(start, end), 'binary');
    hash('sha256', signed, 'binary');
    publicDecrypt(decryption, signature);
    JSON.parse(bytes.latin1Slice(start, end));
  };
}

// The caps of the login's text fields (src/auth/paths/login.ts), and the rule a role name must meet before it becomes a
// storage key (src/auth/roles/role.ts).
const DOCUMENT_MAX_LENGTH = 128 * 1024;
const ROLE_NAME = /^\w(?:[\w.-]*\w)?$/;

/**
 * The steps of the handle() row that the login's rules require, written by hand with nothing else: a zod check of the
 * five ec2 text fields with their caps, the refusal of a PKCS#7 sent beside a detached identity or signature, the
 * registered certificates listed (each read, and kept if of the `pkcs7` type), verifyPkcs7, the document parsed and
 * checked, the role's name checked against the name rule and lower-cased, the role read, a 400 answer built rather
 * than thrown. No router, no request context, no error class. Its ratio bounds from above what any framework around
 * these steps could reach. With `typedError`, the refusal is the engine's own: an InvalidRequest thrown out of the
 * steps and answered from its status and message, as every refusal of the engine is (the ceiling row).
 */
export function handWrittenVerdict(rsa2048, { typedError = false } = {}) {
  const storage = new MemoryStorage();
  const text = (max) => z.string().max(max).optional();
  const Body = z.object({
    role: text(512),
    pkcs7: text(DOCUMENT_MAX_LENGTH),
    identity: text(DOCUMENT_MAX_LENGTH),
    signature: text(DOCUMENT_MAX_LENGTH),
    nonce: text(4096),
  });
  const body = { role: 'absent-role', pkcs7: rsa2048.replace(/\s+/g, '') };
  const steps = async () => {
    const { role, pkcs7, identity, signature } = Body.parse(body);
    if (!pkcs7 || identity || signature) throw new Error('unexpected request');
    const registered = [];
    for (const name of await storage.list('auth/config/certificate/')) {
      const stored = await storage.get(`auth/config/certificate/${name}`);
      const { type, aws_public_cert: pem } = JSON.parse(Buffer.from(stored).toString());
      if (type === 'pkcs7') registered.push({ name, type, pem, builtin: false });
    }
    // The same list object while none is registered, as the engine keeps it: the signer lookup snapshots it once.
    const trusted = registered.length === 0 ? PKCS7_TRUSTED : [...PKCS7_TRUSTED, ...registered];
    const document = parseIdentityDocument(verifyPkcs7(pkcs7, trusted).content);
    const roleName = role || document.imageId;
    const stored = ROLE_NAME.test(roleName) ? await storage.get(`auth/role/${roleName.toLowerCase()}`) : undefined;
    if (stored !== undefined) throw new Error('unexpected role');
    const message = `entry for role ${JSON.stringify(roleName)} not found`;
    if (typedError) throw new InvalidRequest(message);
    return { status: 400, body: { errors: [message] } };
  };
  if (!typedError) return steps;
  return () =>
    steps().catch((error) => {
      if (!(error instanceof InvalidRequest)) throw error;
      return { status: error.status, body: { errors: [error.message] } };
    });
}

export async function verifyBenchmarks(log) {
  const { rsa2048, certificate } = sample();
  const der = Buffer.from(rsa2048.replace(/\s+/g, ''), 'base64');
  const certificateDer = new X509Certificate(certificate).raw;
  const publicKey = new X509Certificate(certificate).publicKey;
  const { signed, signature } = signatureParts(der, certificateDer);
  // Every check below must pass before anything is timed: a benchmark of a failing path measures nothing.
  if (!verify('sha256', signed, publicKey, signature)) throw new Error('bare verify fails');
  if (verifyPkcs7(rsa2048, PKCS7_TRUSTED).signer.name !== 'rsa2048/us-west-2') throw new Error('verifyPkcs7 fails');
  const pkijsVerify = async () => {
    const result = await pkijsSignedData(der, certificateDer).verify({
      signer: 0,
      checkChain: false,
      extendedMode: true,
    });
    if (!result.signatureVerified) throw new Error('pkijs fails');
  };
  await pkijsVerify();

  const ours = { name: 'verifyPkcs7', fn: batchedSync(BATCH, () => verifyPkcs7(rsa2048, PKCS7_TRUSTED)), batch: BATCH };
  log('login: rsa2048 PKCS#7 verification against bare crypto.verify');
  const bare = {
    name: 'crypto.verify',
    fn: batchedSync(BATCH, () => verify('sha256', signed, publicKey, signature)),
    batch: BATCH,
  };
  const againstBare = await compare(ours, bare);
  log('login: rsa2048 PKCS#7 verification against pkijs');
  const againstPkijs = await compare(ours, { name: 'pkijs', fn: batched(1, pkijsVerify), batch: 1 });
  const verdict = { name: 'ec2 verdict via handle()', fn: batched(BATCH, await ec2Verdict()), batch: BATCH };
  const verdictByHand = { name: 'verdict by hand', fn: batched(BATCH, handWrittenVerdict(rsa2048)), batch: BATCH };
  log('login: ec2 login up to its signature verdict through handle() against the same steps by hand');
  const againstHand = await compare(verdict, verdictByHand);
  log('login: the steps by hand refusing with a thrown InvalidRequest against the same steps by hand');
  const typedErrorCeiling = await compare(
    {
      name: 'verdict by hand, typed error',
      fn: batched(BATCH, handWrittenVerdict(rsa2048, { typedError: true })),
      batch: BATCH,
    },
    verdictByHand,
  );
  log('login: ec2 login up to its signature verdict through handle() against bare crypto.verify');
  const throughHandle = await compare(verdict, bare);
  log('login: the ec2 verdict written by hand against bare crypto.verify');
  const byHand = await compare(verdictByHand, bare);
  log('login: the floor of the ec2 verdict against bare crypto.verify');
  const floor = await compare(
    {
      name: 'verdict floor',
      fn: batchedSync(BATCH, verdictFloor(rsa2048, publicKey, signed, signature)),
      batch: BATCH,
    },
    bare,
  );
  return [
    {
      section: 'login',
      name: 'ec2 verdict via handle() against the same steps by hand (genuine rsa2048 document, role refused after it)',
      unit: 'logins/s',
      result: againstHand,
      limitName: 'the steps by hand',
      goal: { kind: 'ratio-min', value: 0.85 },
    },
    {
      section: 'login',
      name: 'ceiling of the row above while refusals are typed errors: the steps by hand, refusing with a thrown InvalidRequest answered from its status, against the same steps by hand',
      unit: 'logins/s',
      result: typedErrorCeiling,
      limitName: 'the steps by hand',
      goal: { kind: 'info' },
    },
    {
      section: 'login',
      name: 'ec2 login up to its signature verdict via handle() (genuine rsa2048 document, role refused after it)',
      unit: 'logins/s',
      result: throughHandle,
      limitName: 'bare crypto.verify, same signature',
      goal: { kind: 'info' },
    },
    {
      section: 'login',
      name: 'the row above by hand: zod check of the 5 ec2 fields, certificate list, verifyPkcs7, document parse, role name rule, role read, a 400 built, no router or thrown error',
      unit: 'logins/s',
      result: byHand,
      limitName: 'bare crypto.verify, same signature',
      goal: { kind: 'info' },
    },
    {
      section: 'login',
      name: 'floor of the ec2 verdict: base64 decode, SHA-256 of content and signed attributes, bare RSA operation, JSON.parse, nothing else',
      unit: 'ops/s',
      result: floor,
      limitName: 'bare crypto.verify, same signature',
      goal: { kind: 'info' },
    },
    {
      section: 'login',
      name: `rsa2048 PKCS#7 verify (verifyPkcs7, ${PKCS7_TRUSTED.length} built-in certificates trusted)`,
      unit: 'verifies/s',
      result: againstBare,
      limitName: 'bare crypto.verify, same signature',
      goal: { kind: 'ratio-min', value: 0.7 },
    },
    {
      section: 'login',
      name: 'rsa2048 PKCS#7 verify against pkijs SignedData.verify',
      unit: 'verifies/s',
      result: againstPkijs,
      limitName: 'pkijs, same document',
      goal: { kind: 'speedup-min', value: 50 },
    },
  ];
}
