/**
 * Tests that start real server processes (kill -9, several instances, the built bundle), and
 * tests that time other calls while heavy work runs (`*.load.test.ts`: their bound is the quiet
 * latency measured just before, which other test files running beside them would blur), form
 * the integration tier: `npm test` runs it after the unit tier, one file at a time;
 * `npm run test:unit` leaves it out.
 */
export const integrationTests = [
  'src/**/*.crash.test.ts',
  'src/**/*.processes.test.ts',
  'src/features/upload/upload.instances.*.test.ts',
  'src/startup.instances.test.ts',
  'src/testing/processes.test.ts',
  'src/**/*.faults.test.ts',
  'src/**/*.load.test.ts',
];
