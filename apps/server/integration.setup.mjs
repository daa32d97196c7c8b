// The integration tier runs the real built server (`dist/main.js`), as deployments do: built here
// when any source is newer (`npm test` built it already; `npm run test:integration` may not have).
import { ensureServerBuilt } from '../../scripts/lib.mjs';

export default function setup() {
  ensureServerBuilt();
}
