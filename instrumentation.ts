/**
 * Next's startup hook, in the Node.js server only: stamps every request with its TCP peer's address
 * (lib/http/peer-address.ts: a route handler has no other trustworthy way to it under `next start`),
 * checks the configuration and opens the store, and starts the export runner, so a restarted server
 * resumes queued and running exports without waiting for a request. Imported lazily, so neither the
 * edge runtime nor `next build` ever loads better-sqlite3 or opens the store.
 *
 * A server that cannot start its services (a wrong setting, no NEXTAUTH_SECRET in production, a
 * database it cannot reach, a data folder it cannot write or another process holds) stops here
 * with the reason, exit code 1: serving, it would answer every request 500 while a supervisor saw
 * a healthy process.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { installPeerStamp } = await import('./lib/http/peer-address');
  installPeerStamp();
  try {
    const { authSecret } = await import('./lib/auth/auth-secret');
    authSecret();
    const { getServices } = await import('./lib/root/services');
    await getServices();
  } catch (err) {
    console.error(`The dashboard cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
