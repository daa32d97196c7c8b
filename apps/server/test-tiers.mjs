/**
 * Tests that start real server processes (kill -9, several instances, the built bundle), and
 * tests that time other calls while heavy work runs (`*.load.test.ts`), form the integration
 * tier: `npm test` runs it after the unit tier; `npm run test:unit` leaves it out. The patterns
 * name files wherever their feature keeps them.
 */
export const integrationTests = [
  'src/**/*.crash.test.ts',
  'src/**/*.processes.test.ts',
  'src/**/upload.instances.*.test.ts',
  'src/startup.instances.test.ts',
  'src/testing/processes.test.ts',
  'src/**/*.faults.test.ts',
  'src/**/*.load.test.ts',
];

/**
 * The part of the integration tier that runs one file at a time, after the rest: files whose
 * bound is a quiet latency measured just before (`*.load.test.ts`, which files beside them would
 * blur), and files whose clock runs on production timings in processes they cannot tune (a
 * restart after kill -9 included in "within 5 s"), and files heavy enough to stretch the others'
 * clocks. The rest of the tier runs side by side, a file per core: among them chat.faults, whose
 * 15 s are mostly an 8 s database stall and an answer streaming at 20 tokens a second, and whose
 * bounds only loosen under load (the stalled writer's heartbeat at least 3 s stale, every answer
 * done within 30 s of the stall's end).
 */
export const quietIntegrationTests = [
  'src/**/*.load.test.ts',
  'src/**/*.crash.test.ts',
  'src/**/upload.instances.*.test.ts',
  'src/**/chat.processes.test.ts',
];
