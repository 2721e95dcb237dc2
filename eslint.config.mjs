// Lint rules that catch what the type checker does not: promises nobody awaits or that are passed where a plain
// value is expected (a forgotten await in a storage commit is a lost write), and the usual slips. Formatting is
// Prettier's (prettier.config.mjs), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'reports/',
      '.stryker-tmp/',
      '.bench-build/',
      'api-reference/',
      'coverage/',
      '.test-build/',
      'data/',
      '.tmp-*/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Promise.all over answers some of which are already values (a cache hit, a listener that returns nothing).
      '@typescript-eslint/await-thenable': ['error', { allowMixedPromiseArrays: true }],
      // Validators match control characters on purpose, to refuse them in paths, names and JSON strings.
      'no-control-regex': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Route handlers are async by their interface, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Tests read untyped JSON answers (`answer.json.data.keys`) by design: what they assert is the value, not its type.
    files: ['tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // expect(object.method) hands a method to vitest, which never calls it unbound.
      '@typescript-eslint/unbound-method': 'off',
      // Test doubles record what the client hands them (a fetch body or URL, an ASN.1 value) as the string it is.
      '@typescript-eslint/no-base-to-string': 'off',
      // Async callbacks in tests: an unhandled rejection fails the vitest run or crashes the worker, so none goes unseen.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // Plain JavaScript (bench, scripts, examples) has no types to check against; nor has the mutation run's vitest
    // config, outside tsconfig.json, which reads its groups from JavaScript.
    files: ['**/*.mjs', '**/*.js', 'mutation/vitest.config.ts'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'URL',
          'Buffer',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'setImmediate',
          'performance',
          'fetch',
          'AbortController',
          'AbortSignal',
          'TextEncoder',
          'TextDecoder',
          'queueMicrotask',
          'structuredClone',
          'crypto',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
