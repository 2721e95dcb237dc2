import { z } from 'zod';
import { InvalidRequest } from '../../lib/errors.js';
import { str } from '../../core/framework/fields.js';
import { listResponse } from '../../core/framework/response.js';
import { route, type Route } from '../../core/framework/routing-table.js';
import type { AuthContext } from '../context/auth-context.js';
import { parseCertificateInput, parseCertificateType } from '../certificates/certificate-input.js';
import {
  certificateDocuments,
  listCertificateNames,
  type StoredCertificate,
} from '../certificates/certificate-store.js';
import { documentRoute } from './document-route.js';
import { pathPattern } from './pattern.js';

const certificateFields = z.object({
  aws_public_cert: str({ maxLength: 64 * 1024 })
    .optional()
    .describe(
      'Required on every write: one PEM `CERTIFICATE` block, or its base64 (tried first). See the checks below.',
    ),
  type: str({ maxLength: 32 }).optional().meta({
    description:
      '`pkcs7` (verifies PKCS#7 documents) or `identity` (verifies signatures of identity documents), any casing. An update without it keeps the registered type.',
    default: 'pkcs7',
  }),
});

/** The certificate is required on every write; an update without `type` keeps the registered one. */
function applyCertificateFields(
  current: StoredCertificate | undefined,
  fields: z.output<typeof certificateFields>,
): StoredCertificate {
  if (fields.aws_public_cert === undefined) throw new InvalidRequest('missing aws_public_cert');
  const pem = parseCertificateInput(fields.aws_public_cert);
  const type = fields.type === undefined ? (current?.type ?? 'pkcs7') : parseCertificateType(fields.type);
  return { aws_public_cert: pem, type };
}

export function certificateRoutes(context: AuthContext): Route[] {
  return [
    documentRoute(context, {
      pattern: 'config/certificate/:cert_name',
      summary: 'A certificate that verifies identity documents, registered besides the built-in ones.',
      document: (params) => certificateDocuments.named(params.cert_name!),
      fields: certificateFields,
      view: (certificate: StoredCertificate) => ({
        aws_public_cert: certificate.aws_public_cert,
        type: certificate.type,
      }),
      apply: applyCertificateFields,
    }),
    route({
      pattern: pathPattern('config/certificates/'),
      summary: 'The names of the registered certificates.',
      operations: { list: async () => listResponse(await listCertificateNames(context)) },
    }),
  ];
}
