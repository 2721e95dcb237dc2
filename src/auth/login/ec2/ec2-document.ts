import { InvalidRequest } from '../../../lib/errors.js';
import type { AuthContext } from '../../context/auth-context.js';
import { certificatesFor } from '../../certificates/certificate-store.js';
import { parseIdentityDocument, type IdentityDocument } from './identity-document.js';
import { verifyIdentitySignature } from '../../pkcs7/identity-signature.js';
import { verifyPkcs7 } from '../../pkcs7/pkcs7.js';

export interface Ec2DocumentFields {
  pkcs7?: string;
  identity?: string;
  signature?: string;
}

const BOTH_SUPPLIED =
  'both pkcs7 and a tuple containing the instance identity document and its SHA256 RSA signature is supplied; provide only one';

/**
 * The instance identity an ec2 login proves (as in Vault): a PKCS#7 (the rsa2048 variant, or the DSA-SHA1 one
 * when the engine allows SHA-1) against the trusted `pkcs7` certificates, or the document with its detached signature
 * against the `identity` ones. The identity is read from the verified bytes only. A PKCS#7 sent with either part of the
 * other pair is refused, where Vault ignores a lone `identity` or `signature`: a body holding two documents,
 * one of them unsigned, is how a check comes to read the document the signature does not cover. A refusal of the
 * fields is thrown at once; not async, since every login passes here and an async layer that only hands on a promise
 * costs it several microtask turns.
 */
export function verifyEc2Document(context: AuthContext, fields: Ec2DocumentFields): Promise<IdentityDocument> {
  const pkcs7 = fields.pkcs7 ?? '';
  const identity = fields.identity ?? '';
  const signature = fields.signature ?? '';
  if (pkcs7 === '' && identity === '' && signature === '') {
    throw new InvalidRequest(
      'either pkcs7 or a tuple containing the instance identity document and its SHA256 RSA signature needs to be provided',
    );
  }
  if (pkcs7 !== '' && (identity !== '' || signature !== '')) {
    if (identity !== '' && signature !== '') throw new InvalidRequest(BOTH_SUPPLIED);
    throw new InvalidRequest(
      `both pkcs7 and ${identity !== '' ? 'identity' : 'signature'} are supplied; provide only one`,
    );
  }
  const options = { allowSha1: context.allowSha1Signatures };
  return pkcs7 !== ''
    ? certificatesFor(context, 'pkcs7').then((trusted) =>
        parseIdentityDocument(verifyPkcs7(pkcs7, trusted, options).content),
      )
    : certificatesFor(context, 'identity').then((trusted) =>
        parseIdentityDocument(verifyIdentitySignature(identity, signature, trusted).content),
      );
}
