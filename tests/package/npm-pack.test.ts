import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyPackage,
  createDocApp,
  documentationFiles,
  npm,
  root,
  runnableBlocks,
  runtimeClosure,
  type DocApp,
} from '../support/doc-blocks.js';

/**
 * What a new user gets: a fresh build, `npm pack`, a new app that installs the tarball (offline: the dependencies it
 * declares come from this repository's node_modules, as they would from npm's cache), then the README's code pasted
 * verbatim.
 */
describe('npm pack into a new app', () => {
  const packDir = realpathSync(mkdtempSync(join(tmpdir(), 'strongroom-pack-')));
  let packed: string[] = [];
  let app: DocApp;

  beforeAll(() => {
    const ready = spawnSync(process.execPath, ['scripts/ensure-ready.mjs'], { cwd: root, encoding: 'utf8' });
    expect(ready.status, ready.stderr).toBe(0);
    const [report] = JSON.parse(npm(['pack', '--json', '--pack-destination', packDir], root)) as {
      filename: string;
      files: { path: string }[];
    }[];
    if (!report) throw new Error('npm pack reported nothing');
    packed = report.files.map((file) => file.path);
    const tarball = join(packDir, report.filename);
    app = createDocApp((dir) => {
      const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      const nodeModules = join(root, 'node_modules');
      for (const name of runtimeClosure(Object.keys(dependencies), realpathSync(nodeModules)))
        copyPackage(name, nodeModules, dir);
      npm(['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], dir);
    });
  }, 300_000);
  afterAll(() => {
    app?.remove();
    rmSync(packDir, { recursive: true, force: true });
  });

  it('ships the build, its declarations, the licence and the documentation, and nothing else', () => {
    for (const file of [
      'LICENSE',
      'README.md',
      'CHANGELOG.md',
      'package.json',
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
    ]) {
      expect(packed).toContain(file);
    }
    for (const doc of documentationFiles()) expect(packed).toContain(doc);
    expect(packed.filter((file) => /^(src|tests|bench|scripts|examples|fixtures)\//.test(file))).toEqual([]);
  });

  it('declares its licence, repository, home page, issue tracker and keywords', () => {
    const manifest = JSON.parse(readFileSync(join(app.dir, 'node_modules', 'strongroom', 'package.json'), 'utf8'));
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(app.dir, 'node_modules', 'strongroom', 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} strongroom contributors/,
    );
    expect(manifest.repository.url).toContain('github.com/strongroom/strongroom');
    expect(manifest.homepage).toMatch(/^https:\/\/github\.com\/strongroom\/strongroom/);
    expect(manifest.bugs.url).toBe('https://github.com/strongroom/strongroom/issues');
    expect(manifest.keywords.length).toBeGreaterThan(3);
    expect(manifest.sideEffects).toBe(false);
  });

  it('has no dead relative link in its README and docs', () => {
    const dead: string[] = [];
    for (const doc of documentationFiles()) {
      const text = readFileSync(join(app.dir, 'node_modules', 'strongroom', doc), 'utf8');
      const folder = doc.includes('/') ? doc.slice(0, doc.lastIndexOf('/') + 1) : '';
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (!target || /^[a-z]+:/i.test(target)) continue;
        const path = normalize(folder + target);
        if (!packed.includes(path)) dead.push(`${doc} -> ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });

  // One module graph per format: the server's engines and errors, and the AWS entry's errors, are the root's classes.
  it.each([
    ['ESM', 'identity.mjs', (entry: string) => `(await import('${entry}'))`],
    ['CommonJS', 'identity.cjs', (entry: string) => `require('${entry}')`],
  ])('shares one copy of each class across its entries (%s)', (_, file, load) => {
    const script = `(async () => {
      const root = ${load('strongroom')};
      const { createServer } = ${load('strongroom/server')};
      const { KmsRootKey } = ${load('strongroom/aws')};
      const server = createServer();
      const missing = await server.kv.read('missing').catch((error) => error);
      const kms = await new KmsRootKey({ keyId: 'k', region: 'eu-west-1', credentials: async () => { throw new Error('none'); } })
        .wrapKey(new Uint8Array(32)).catch((error) => error);
      console.log(JSON.stringify({
        kv: server.kv instanceof root.KvEngine,
        auth: server.auth instanceof root.AuthMethod,
        notFound: missing instanceof root.NotFound && missing instanceof root.StrongroomError && root.isStrongroomError(missing),
        kms: kms instanceof root.RootKeyUnavailable && root.isStrongroomError(kms),
      }));
    })();`;
    const path = join(app.dir, file);
    writeFileSync(path, script);
    const result = app.run(path);
    expect(result.status, result.output).toBe(0);
    expect(JSON.parse(result.output)).toEqual({ kv: true, auth: true, notFound: true, kms: true });
  });

  it('runs the README examples pasted verbatim', () => {
    const blocks = runnableBlocks('README.md');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const result = app.run(app.write(block));
      expect(result.status, `README.md:${block.line}\n${result.output}`).toBe(0);
    }
  }, 120_000);

  it("type-checks the README's TypeScript in the app", () => {
    const files = runnableBlocks('README.md')
      .filter((block) => block.language === 'ts')
      .map((block) => app.write(block));
    const result = app.typecheck(files);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  // Such projects ignore `exports`; `typesVersions` points them at each subpath's declarations.
  it('type-checks every entry under moduleResolution node', () => {
    const file = join(app.dir, 'old-resolution.ts');
    writeFileSync(
      file,
      `import { KvEngine } from 'strongroom';
import { AwsCloudProvider } from 'strongroom/aws';
import { createServer } from 'strongroom/server';
import { SqliteStorage } from 'strongroom/sqlite';
import { PostgresStorage } from 'strongroom/postgres';
import { FakeAws } from 'strongroom/testing';
export const kinds: Array<object> = [KvEngine, AwsCloudProvider, createServer, SqliteStorage, PostgresStorage, FakeAws];
`,
    );
    const result = app.typecheck([file], { resolution: 'node' });
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  it('type-checks an app that uses only the engines, without @types/node', () => {
    const file = join(app.dir, 'engines-only.ts');
    writeFileSync(
      file,
      `import { AuthMethod, KvEngine, MemoryStorage, errorsOf, isGrant, isOk, type AuthGrant, type KeyMetadata } from 'strongroom';
const storage = new MemoryStorage();
const kv = new KvEngine({ storage, storagePrefix: 'secret/' });
const auth = new AuthMethod({ storage, storagePrefix: 'auth/cloud/', env: {} });
const response = await kv.handle({ method: 'GET', path: 'config' });
const messages: string[] = isOk(response) ? [] : errorsOf(response);
const version: number = (await kv.write('app/db', { password: 's3cret' })).metadata.version;
const metadata: KeyMetadata = await kv.readMetadata('app/db');
const login = await auth.handle({ method: 'POST', path: 'login', body: { role: 'web' } });
const grant: AuthGrant | undefined = isGrant(login) ? login.body.auth : undefined;
const typed: Promise<AuthGrant> = auth.login({ role: 'web' });
export { messages, version, metadata, grant, typed };
`,
    );
    const result = app.typecheck([file], { nodeTypes: false });
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});
