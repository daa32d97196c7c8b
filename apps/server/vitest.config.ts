import { defineProject } from 'vitest/config';
import { integrationTests } from './test-tiers.mjs';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: integrationTests,
    environment: 'node',
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
