/**
 * Another dashboard instance that takes the deployment's one upstream call and never finishes it,
 * for the governor's tests of a holder that dies: opens the PostgreSQL store of the URL given,
 * starts a governed call for the account given whose upstream part never returns, prints one JSON
 * line ({"holding":true}) once the call is under way, and stays so until it is killed. Run with
 * `node --conditions=react-server --import tsx` (the condition makes `server-only` importable
 * outside Next).
 */
import { Governor } from '../../lib/governor/governor';
import { openStore } from '../../lib/root/open-store';
import { postgresGovernorBackend } from '../../lib/governor/postgres-backend';

const [databaseUrl, account] = process.argv.slice(2);

async function main() {
  const store = await openStore({ DATABASE_URL: databaseUrl!, dataDir: '/nonexistent' });
  const governor = new Governor({
    backend: postgresGovernorBackend(store.db, store.pool!, { maxInFlight: 1 }),
    limits: {
      account: { perMinute: 1000, perHour: 1000, perDay: 1000 },
      deployment: null,
      backgroundReserve: 0,
      syncShare: 1,
      holdbackShare: 0,
      tokensPerMinute: 1000,
    },
    maxInFlight: 1,
    maxWaitMs: 60_000,
  });
  void governor.run({ account: account!, cls: 'interactive', kind: 'query' }, () => {
    process.stdout.write(`${JSON.stringify({ holding: true })}\n`);
    return new Promise<never>(() => setInterval(() => undefined, 60_000));
  });
}

main().catch((err: unknown) => {
  process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`);
  process.exitCode = 1;
});
