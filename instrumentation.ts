/**
 * Next's startup hook: starts the export runner in the Node.js server, so a restarted server resumes
 * queued and running exports without waiting for a request. Imported lazily and only in the Node.js
 * runtime, so neither the edge runtime nor `next build` ever loads better-sqlite3 or opens the store.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  try {
    const { getServices } = await import('./lib/root/services');
    await getServices();
  } catch (err) {
    // The dashboard still serves; the services start on the first request instead.
    console.error('The export runner did not start:', err instanceof Error ? err.message : err);
  }
}
