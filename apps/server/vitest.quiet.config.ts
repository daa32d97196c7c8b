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
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
