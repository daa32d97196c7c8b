import { defineProject } from 'vitest/config';
import { integrationTests } from './test-tiers.mjs';

export default defineProject({
  test: {
    name: 'server-integration',
    include: integrationTests,
    environment: 'node',
    globalSetup: ['./integration.setup.mjs'],
    // One file at a time: these start real processes and measure how soon they recover (a kill
    // answered within 5 s); run side by side on two cores, one file's work (reading a 1,500-page
    // PDF) delays another's clock.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
