/** Reads the `<Credentials>` of an STS AssumeRole* answer. */
import { CloudUnavailable } from '../../../lib/errors.js';
import type { AwsCredentials } from './signing.js';
import { child, requiredText, type XmlNode } from './xml.js';

export function credentialsOfAnswer(answer: XmlNode, action: string): AwsCredentials {
  const label = `sts ${action}`;
  const credentials = child(child(answer, `${action}Result`), 'Credentials');
  const expiresAt = new Date(requiredText(credentials, label, 'Expiration'));
  if (Number.isNaN(expiresAt.getTime())) throw new CloudUnavailable(`${label}: answer has an invalid Expiration`);
  return {
    accessKeyId: requiredText(credentials, label, 'AccessKeyId'),
    secretAccessKey: requiredText(credentials, label, 'SecretAccessKey'),
    sessionToken: requiredText(credentials, label, 'SessionToken'),
    expiresAt,
  };
}
