import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'playwright-report/**',
      'test-results/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
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
    // may reach on PostgreSQL as well as on SQLite (issue 12).
    files: ['packages/shared/src/contract/**/*.ts', 'apps/server/src/**/*.routes.ts'],
    ignores: ['packages/shared/src/contract/fields.ts'],
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
  prettier,
);
