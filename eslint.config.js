import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import boundaries from './eslint.boundaries.js';

// The rules that need types (floating promises, deprecated APIs, ...) run in oxlint's type-aware
// pass (.oxlintrc.json), beside this one; scripts/check.mjs runs both and the import-cycle walk.
export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'playwright-report/**',
      'test-results/**',
      'bench/results/**',
      // ModStart's built assets, copied unchanged for the browser test (their README says whence).
      'apps/web/e2e/fixtures/modstart/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // The server, the shared package, scripts and benchmarks run in Node; the web app in browsers.
  {
    files: ['apps/server/**', 'packages/**', 'scripts/**', 'bench/**', '*.js', '*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['apps/web/src/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Playwright specs, benchmarks and build configs run in Node; `page.evaluate` bodies run in
    // the page.
    files: ['apps/web/e2e/**', 'apps/web/*.ts', 'bench/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The shared barrel re-exports the zod contract; a value import from it puts zod in the
      // browser bundle (about 60 KB gzipped). Import values from the subpath modules instead.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@atrium/shared',
              message: "Import values from '@atrium/shared/<module>' (types may use the root).",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Request fields come from contract/fields.ts, so each one refuses NUL and fits the column it
    // may reach on PostgreSQL as well as on SQLite (DESIGN 11: one dialect-neutral data layer).
    files: ['packages/shared/src/contract/**/*.ts', 'apps/server/src/**/*.routes.ts'],
    // Answer schemas (`*.answers.ts`) describe what the server sends, never what it accepts.
    ignores: [
      'packages/shared/src/contract/fields.ts',
      'packages/shared/src/contract/*.answers.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='z'][callee.property.name=/^(string|number|int|int32|uint32|float32|float64|bigint|email|url|uuid|any|unknown|json)$/]",
          message:
            'Build request fields from contract/fields.ts (textField, intField, recordId, ...): they refuse NUL and keep numbers inside their column.',
        },
        {
          selector: "MemberExpression[object.name='z'][property.name='coerce']",
          message: 'Build request fields from contract/fields.ts.',
        },
      ],
    },
  },
  {
    // After a change on the server, queries are read again through invalidateFresh: a read
    // already under way may predate the change, and invalidateQueries alone joins it.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/query-client.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'invalidateQueries',
          message: "Use invalidateFresh(client, filters) from '@/lib/query-client'.",
        },
      ],
    },
  },
  ...boundaries,
  prettier,
);
