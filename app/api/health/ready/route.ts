/**
 * GET /api/health/ready: 200 when this instance should get traffic — its store answers, every
 * migration is applied, its background runners run, it is not stopping — else 503 naming the check
 * that failed (`{"status": "unavailable", "failing": "store"}`), with Retry-After. For a load
 * balancer's or orchestrator's readiness probe: no session, no upstream call, no version or count.
 */
import { otherMethodsRefused } from '@/lib/http/methods';
import { STORE_RETRY_AFTER_S } from '@/lib/http/problem';
import { readiness } from '@/lib/root/readiness';
import { getServices } from '@/lib/root/services';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const NOT_KEPT = { 'Cache-Control': 'no-store' };

export async function GET(): Promise<Response> {
  const verdict = await readiness(getServices);
  if (verdict.ready) return Response.json({ status: 'ready' }, { headers: NOT_KEPT });
  return Response.json(
    { status: 'unavailable', failing: verdict.failing },
    { status: 503, headers: { ...NOT_KEPT, 'Retry-After': String(STORE_RETRY_AFTER_S) } },
  );
}

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
