// A self-signed TLS certificate for tests that serve HTTPS, made by openssl: valid one day for localhost and
// 127.0.0.1.
import { execFileSync } from 'node:child_process';

/** Writes a new key to `keyFile` and its self-signed certificate to `certFile` (both PEM). */
export function selfSignedCertificate(certFile: string, keyFile: string): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
}
