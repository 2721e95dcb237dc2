import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const ENTRIES = [
  'strongroom',
  'strongroom/aws',
  'strongroom/server',
  'strongroom/sqlite',
  'strongroom/postgres',
  'strongroom/testing',
];

function node(inputType: 'module' | 'commonjs', script: string): string {
  return execFileSync(process.execPath, [`--input-type=${inputType}`, '-e', script], { cwd: root, encoding: 'utf8' });
}

// The package resolves itself by name from the repository (package.json `exports`), as an installed copy would.
describe('the entries of the build', () => {
  beforeAll(() => {
    const ready = spawnSync(process.execPath, ['scripts/ensure-ready.mjs'], { cwd: root, encoding: 'utf8' });
    expect(ready.status, ready.stderr).toBe(0);
  }, 300_000);

  // A change to what an entry exports is a change of the public API: it shows up here, and in the changelog.
  it('export exactly the names of the snapshot, the same in ESM and CommonJS', () => {
    const list = (load: string) =>
      `const names = {}; for (const entry of ${JSON.stringify(ENTRIES)}) names[entry] = Object.keys(${load}).sort(); console.log(JSON.stringify(names));`;
    const esm = JSON.parse(node('module', list('await import(entry)')));
    const cjs = JSON.parse(node('commonjs', list('require(entry)')));
    expect(cjs).toEqual(esm);
    expect(esm).toMatchSnapshot();
  });

  // What `import 'strongroom'` costs a service that uses only the KV engine: no AWS, network or process code.
  it.each([
    ['ESM', 'module', `await import('strongroom');`],
    ['CommonJS', 'commonjs', `require('strongroom');`],
  ] as const)('loads no AWS, network or child-process code through the root entry (%s)', (_, inputType, load) => {
    const script = `${load}
      const builtins = process.moduleLoadList.filter((name) => /^NativeModule (child_process|https|tls|http)$/.test(name));
      const packages = Object.keys(require('node:module')._cache).filter((path) => /node_modules\\/(aws4|fast-xml-parser)\\//.test(path));
      console.log(JSON.stringify({ builtins, packages }));`;
    const wrapped =
      inputType === 'module'
        ? `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${script}`
        : script;
    expect(JSON.parse(node(inputType, wrapped))).toEqual({ builtins: [], packages: [] });
  });

  it('loads the AWS provider when an AuthMethod without a provider of its own first calls the cloud', () => {
    const script = `import { AuthMethod, MemoryStorage } from 'strongroom';
      const auth = new AuthMethod({ storage: new MemoryStorage(), env: {} });
      const before = process.moduleLoadList.includes('NativeModule https');
      // An unreachable endpoint: the call fails, but only after the provider has been loaded to make it.
      await auth.handle({ method: 'POST', path: 'config/client', body: { access_key: 'AKIAEXAMPLE', secret_key: 'x', iam_endpoint: 'http://127.0.0.1:9', sts_endpoint: 'http://127.0.0.1:9', max_retries: 0 } });
      const answer = await auth.handle({ method: 'POST', path: 'config/rotate-root' });
      console.log(JSON.stringify({ before, after: process.moduleLoadList.includes('NativeModule https'), status: answer.status }));`;
    expect(JSON.parse(node('module', script))).toEqual({ before: false, after: true, status: 502 });
  });
});
