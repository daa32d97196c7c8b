// `npm start`: install what is missing, build what is stale, then run Atrium (migrations and
// the first admin are handled by the server's own `start` command).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, root } from './lib.mjs';

ensureInstalled();
ensureBuilt();

const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js'), 'start'], {
  stdio: 'inherit',
  cwd: root,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
