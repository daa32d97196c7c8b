import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default leaves a core idle (cores - 1: one worker on a 2-core machine); most test
    // files wait on databases, sockets and child processes, so one worker per core, plus one.
    maxWorkers: availableParallelism() + 1,
    projects: [
      'packages/shared/vitest.config.ts',
      'apps/server/vitest.config.ts',
      'apps/server/vitest.integration.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
