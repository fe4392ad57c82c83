/**
 * Next's startup hook, in the Node.js server only: stamps every request with its TCP peer's address
 * (lib/http/peer-address.ts: a route handler has no other trustworthy way to it under `next start`),
 * and starts the export runner, so a restarted server resumes queued and running exports without
 * waiting for a request. Imported lazily, so neither the edge runtime nor `next build` ever loads
 * better-sqlite3 or opens the store.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { installPeerStamp } = await import('./lib/http/peer-address');
  installPeerStamp();
  try {
    const { getServices } = await import('./lib/root/services');
    await getServices();
  } catch (err) {
    // The dashboard still serves; the services start on the first request instead.
    console.error('The export runner did not start:', err instanceof Error ? err.message : err);
  }
}
