/**
 * Next's startup hook: in the Node.js server only, lib/root/startup.ts (the peer-address stamp, the
 * configuration and the store checked, the export runner started; a server that cannot work stops
 * there). Imported lazily, so neither the edge runtime nor `next build` ever loads better-sqlite3 or
 * opens the store.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startServer } = await import('./lib/root/startup');
  await startServer();
}
