// `npm run bench`: builds what is stale, then runs every bench/*.bench.mjs in turn. Each prints
// its own table and writes bench/results/<name>.json; goals are ratios or budgets from DESIGN 10.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, root, run } from './lib.mjs';

ensureInstalled();
ensureBuilt();

const only = process.argv.slice(2);
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n› bench/${file}`);
  if (run(process.execPath, [join(root, 'bench', file)]) !== 0) failed++;
}
if (failed) {
  console.error(`\n${failed} benchmark(s) missed their goal or failed.`);
  process.exit(1);
}
