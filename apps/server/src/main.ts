import { runCli } from './cli';
import { guardProcess } from './process-guard';

const result = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});

if (result.server) {
  const { server } = result;
  guardProcess(server.app.log, (code) => process.exit(code));
  const shutdown = (signal: NodeJS.Signals) => {
    server.app.log.info({ signal }, 'shutting down');
    // A second signal, or a shutdown stuck on a slow request, ends the process anyway.
    setTimeout(() => process.exit(1), 10_000).unref();
    process.once(signal, () => process.exit(1));
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
} else {
  process.exitCode = result.code;
}
