// What every bench server does around its handler: listens on a free loopback port, says so on
// stdout ("listening <port> <dir>", which startBenchServer waits for), and on SIGTERM stops and
// removes its folder.
import { rmSync } from 'node:fs';

export function serveBench(server, dir) {
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(`listening ${typeof address === 'object' && address ? address.port : 0} ${dir}`);
  });
  process.on('SIGTERM', () => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}
