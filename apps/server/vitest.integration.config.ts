import { defineProject } from 'vitest/config';
import { integrationTests } from './test-tiers.mjs';

export default defineProject({
  test: {
    name: 'server-integration',
    include: integrationTests,
    environment: 'node',
    globalSetup: ['./integration.setup.mjs'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
