// `npm run dev`: the server in watch mode (tsx, restarts on change) and Vite's dev server with
// hot reload, whose proxy sends API and file calls to the server. One Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { ensureInstalled, root } from './lib.mjs';

ensureInstalled();

const children = [
  spawn('npm', ['run', 'dev', '-w', '@atrium/server'], { cwd: root, stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@atrium/web'], { cwd: root, stdio: 'inherit' }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

for (const child of children) child.on('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
