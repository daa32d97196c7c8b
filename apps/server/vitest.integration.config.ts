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
    // One module graph per worker, as in the unit tier: each file imported the server's modules
    // anew (seconds a file, one after another in server-quiet); the servers under test are
    // processes of their own either way.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
