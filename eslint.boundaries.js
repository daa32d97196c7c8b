// The import direction of DESIGN 3, enforced: shared → server features / web lib → web features →
// web areas; a feature is reached only through its public index; the areas stay apart. (No cycles
// either: scripts/check.mjs walks the import graph, each specifier resolved as tsc resolves it.)
import { readdirSync } from 'node:fs';

const dirsOf = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const serverFeatures = dirsOf('./apps/server/src/features/');
const webFeatures = dirsOf('./apps/web/src/features/');

const webLower = {
  group: ['@/features/**', '@/areas/**'],
  message: 'lib, stores and components sit below the features and areas (DESIGN 3).',
};

export default [
  {
    files: ['packages/shared/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/apps/**', '@/*'], message: 'shared imports nothing above it.' }],
        },
      ],
    },
  },
  // A server feature reaches another only through its index.ts.
  ...serverFeatures.map((feature) => ({
    files: [`apps/server/src/features/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // A feature's `*.testing` module is its public surface for other features' tests.
              group: ['../*/*', '!../../**', '!../*/index', '!../*/*.testing', `!../${feature}/**`],
              message: "Import another feature through its index.ts ('../<feature>/index').",
            },
          ],
        },
      ],
    },
  })),
  // The chat feature's folders (conversations, generation, streaming, ...) are reached through
  // their index.ts, from each other (the rule above) and from the feature's own top-level files.
  {
    files: ['apps/server/src/features/chat/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/*', '!../../**', '!../*/index', '!../*/*.testing', '!../chat/**'],
              message: "Import another feature through its index.ts ('../<feature>/index').",
            },
            {
              group: ['./*/*', '!./*/index'],
              message:
                "A folder of the chat feature is reached through its index.ts ('./<folder>/index').",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/app.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['./features/*/*', '!./features/*/index'],
              message: "app.ts lists the features' register functions from their index.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/{http,db,storage,bus,security,instances,web}/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../features/**', '../../features/**'],
              message: 'The server core sits below the features (DESIGN 3).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/{lib,stores,components}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [webLower] }] },
  },
  // A web feature reaches another only through its index.ts, and never an area.
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*/**', `!@/features/${feature}/**`],
              message: "Import another feature through its index ('@/features/<name>').",
            },
            { group: ['@/areas/**'], message: 'Features sit below the areas (DESIGN 3).' },
          ],
        },
      ],
    },
  })),
  ...['admin', 'member'].map((area) => ({
    files: [`apps/web/src/areas/${area}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [`@/areas/${area === 'admin' ? 'member' : 'admin'}/**`],
              message: 'The admin and member areas do not import each other (DESIGN 3).',
            },
          ],
        },
      ],
    },
  })),
];
