import { defineProject } from 'vitest/config';
import { quietIntegrationTests } from './test-tiers.mjs';

export default defineProject({
  test: {
    name: 'server-quiet',
    include: quietIntegrationTests,
    environment: 'node',
    globalSetup: ['./integration.setup.mjs'],
    // One file at a time, after the rest of the integration tier (see test-tiers.mjs).
    fileParallelism: false,
    sequence: { groupOrder: 3 },
    // One module graph per worker, as in the unit tier: each file imported the server's modules
    // anew (seconds a file, one after another in server-quiet); the servers under test are
    // processes of their own either way.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
