/**
 * Fills the demo accounts' local history (scripts/lib/demo-history.ts) in a process of its own, for
 * `npm run demo` before it starts the dashboard; its environment is the demo's. Prints its progress,
 * and on its last line what it did (`seeded …`).
 */
import { seedDemoHistory } from './lib/demo-history';

seedDemoHistory(process.env, (line) => console.log(line))
  .then((r) => {
    console.log(
      `seeded ${r.accounts} accounts: ${r.days} days, ${r.records.toLocaleString('en-US')} records, ${r.calls} calls in ${r.seconds.toFixed(1)} s`,
    );
  })
  .catch((err: unknown) => {
    console.error(`The demo's local history could not be filled: ${err instanceof Error ? err.message : String(err)}`);
    // Ends once its output is written (process.exit could cut it short on a pipe).
    process.exitCode = 1;
  });
