/**
 * GET /api/health: whether this instance can serve — its store answers — for a load balancer or an
 * orchestrator's probe. The one route without a session, on purpose: a probe has none. It says
 * nothing of any account, reads no record and makes no upstream call; 200 when the store answers,
 * 503 (with Retry-After) when it does not, so an instance that lost its database is taken out.
 */
import { otherMethodsRefused } from '@/lib/http/methods';
import { STORE_RETRY_AFTER_S } from '@/lib/http/problem';
import { getServices } from '@/lib/root/services';
import { log } from '@/lib/log';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const NOT_KEPT = { 'Cache-Control': 'no-store' };

export async function GET(): Promise<Response> {
  try {
    await (await getServices()).store.ping();
    return Response.json({ status: 'ok', store: 'ok' }, { headers: NOT_KEPT });
  } catch (err) {
    log.warn('health.store_unavailable', { error: err instanceof Error ? err.message : String(err) });
    return Response.json(
      { status: 'unavailable', store: 'unreachable' },
      { status: 503, headers: { ...NOT_KEPT, 'Retry-After': String(STORE_RETRY_AFTER_S) } },
    );
  }
}

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
