/**
 * `npm run sim -- --port 4010`: the simulator as a program. Prints one line when ready (scripts wait
 * for it) and shuts down cleanly on SIGINT/SIGTERM.
 */
import { parseCli, usage } from './options';
import { startSimulator } from './server';

async function main(): Promise<void> {
  const parsed = parseCli(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    process.stderr.write(`simulator: ${parsed.message}\n\n${usage()}\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(`${usage()}\n`);
    return;
  }
  const sim = await startSimulator(parsed.options);
  process.stdout.write(`simulator listening on ${sim.url} (${sim.dataset.visibleCount()} records)\n`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    if (!parsed.options.quiet) process.stdout.write(`simulator: ${signal}, closing\n`);
    // Let the event loop drain rather than process.exit(): a runner in front (tsx relays signals over
    // IPC) then hears about the signal before the process is gone, and reports a clean exit.
    sim.close().then(
      () => {
        process.exitCode = 0;
        setTimeout(() => process.exit(0), 2000).unref();
      },
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`simulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
