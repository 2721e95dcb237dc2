/** XML answers of the fake AWS endpoint, in the shapes EC2 and IAM/STS really use. */
import { randomUUID } from 'node:crypto';
import type { FakeAwsError } from './state.js';

export type FakeService = 'ec2' | 'iam' | 'sts';

const namespaceOf: Record<FakeService, string> = {
  ec2: 'http://ec2.amazonaws.com/doc/2016-11-15/',
  iam: 'https://iam.amazonaws.com/doc/2010-05-08/',
  sts: 'https://sts.amazonaws.com/doc/2011-06-15/',
};

export function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `<name>value</name>` with the value escaped; nothing when the value is absent. */
export function tag(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<${name}>${escapeXml(value)}</${name}>`;
}

/** `<name>…</name>` around already-built XML. */
export function wrap(name: string, inner: string): string {
  return `<${name}>${inner}</${name}>`;
}

export function successXml(service: FakeService, action: string, result: string): string {
  const xmlns = `xmlns="${namespaceOf[service]}"`;
  if (service === 'ec2') {
    return `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response ${xmlns}>${tag('requestId', randomUUID())}${result}</${action}Response>`;
  }
  const metadata = wrap('ResponseMetadata', tag('RequestId', randomUUID()));
  return `<${action}Response ${xmlns}>${wrap(`${action}Result`, result)}${metadata}</${action}Response>`;
}

export function errorXml(service: FakeService | undefined, error: Pick<FakeAwsError, 'code' | 'message'>): string {
  const details = tag('Code', error.code) + tag('Message', error.message);
  if (service === 'ec2') {
    return `<?xml version="1.0" encoding="UTF-8"?>\n<Response>${wrap('Errors', wrap('Error', details))}${tag('RequestID', randomUUID())}</Response>`;
  }
  const xmlns = `xmlns="${namespaceOf[service ?? 'sts']}"`;
  return `<ErrorResponse ${xmlns}>${wrap('Error', tag('Type', 'Sender') + details)}${tag('RequestId', randomUUID())}</ErrorResponse>`;
}
