// Parts of the engines that the bench times on their own but the package does not export: bundled from src/ with
// esbuild (already a build dependency) on first use, into .bench-build/.
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = `${root}.bench-build/internals.mjs`;

buildSync({
  stdin: {
    contents: [
      "export { verifyPkcs7 } from './src/auth/pkcs7/pkcs7.ts';",
      "export { BUILTIN_CERTIFICATES } from './src/auth/certificates/certificate-store.ts';",
      "export { parseIdentityDocument } from './src/auth/login/ec2/identity-document.ts';",
    ].join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile,
  logLevel: 'error',
});

export const { verifyPkcs7, BUILTIN_CERTIFICATES, parseIdentityDocument } = await import(outfile);
