/**
 * GET /api/health/live: 200 while the process serves requests (an orchestrator's liveness probe:
 * restart the process when it stops answering). It asks nothing of the store or the upstream, so a
 * database outage does not get every instance restarted; readiness (./ready) says whether to send
 * traffic. No session, and nothing an outsider could use.
 */
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
