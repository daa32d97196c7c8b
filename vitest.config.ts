import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One worker per core (issue 30): a worker more than the cores only made CPU-heavy files
    // (antd under jsdom) share a core with real-time ones (takeover bounds, heartbeats). The
    // projects run in groups (each config's `sequence.groupOrder`): shared and server first, the
    // web's component tests after them, so the two never share the cores in one run (npm test
    // runs them as two, the web's beside the end of the server's: scripts/test.mjs).
    maxWorkers: availableParallelism(),
    projects: [
      'packages/shared/vitest.config.ts',
      'apps/server/vitest.config.ts',
      'apps/server/vitest.integration.config.ts',
      'apps/server/vitest.quiet.config.ts',
      'apps/web/vitest.config.ts',
      // The repository's own tooling (scripts/*.mjs).
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'], environment: 'node' } },
    ],
  },
});
