import { defineProject } from 'vitest/config';
import { integrationTests, quietIntegrationTests } from './test-tiers.mjs';

export default defineProject({
  test: {
    name: 'server-integration',
    include: integrationTests,
    exclude: quietIntegrationTests,
    environment: 'node',
    globalSetup: ['./integration.setup.mjs'],
    // Side by side, a file per core: each waits mostly on its processes, databases and timers;
    // the files that need a quiet machine are `server-quiet`'s, which runs after this one.
    sequence: { groupOrder: 2 },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
