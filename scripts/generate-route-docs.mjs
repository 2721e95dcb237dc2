// Writes the endpoint tables of docs/auth.md and docs/kv.md from the engines' route rows (see scripts/route-docs.ts):
// `npm run docs:routes`. The rows are TypeScript, so they are bundled with esbuild (already a build dependency) into
// node_modules/.cache/, where their packages resolve, and imported from there.
import { buildSync } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = join(root, 'node_modules', '.cache', 'strongroom', 'route-docs.mjs');

const entryPoints = [join(root, 'scripts', 'route-docs.ts')];
buildSync({
  entryPoints,
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'error',
});

const { ROUTE_DOCS, renderDoc } = await import(pathToFileURL(outfile).href);

try {
  for (const doc of ROUTE_DOCS) {
    const path = join(root, doc.file);
    const text = readFileSync(path, 'utf8');
    const rendered = renderDoc(text, doc);
    if (rendered === text) continue;
    writeFileSync(path, rendered);
    console.log(`${doc.file}: tables written`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
