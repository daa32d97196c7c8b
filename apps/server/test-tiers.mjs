/**
 * Tests that start real server processes (kill -9, several instances, the built bundle) form the
 * integration tier: `npm test` runs it after the unit tier, `npm run test:unit` leaves it out.
 */
export const integrationTests = [
  'src/**/*.crash.test.ts',
  'src/**/*.processes.test.ts',
  'src/features/upload/upload.instances.*.test.ts',
  'src/startup.instances.test.ts',
  'src/testing/processes.test.ts',
  'src/**/*.faults.test.ts',
];
