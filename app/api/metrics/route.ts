/**
 * GET /api/metrics: Prometheus' text format (lib/metrics), for a scraper with METRICS_TOKEN as its
 * bearer token; 404 when METRICS_TOKEN is not set. No session (a scraper has none), no upstream call.
 */
import type { NextRequest } from 'next/server';
import { getConfig } from '@/lib/config';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { otherMethodsRefused } from '@/lib/http/methods';
import { scrapeResponse } from '@/lib/metrics/server';
import { getServices } from '@/lib/root/services';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: NextRequest): Promise<Response> {
  const token = getConfig().METRICS_TOKEN;
  // The store's figures are registered when the services are built (lib/root/services.ts).
  if (token) await getServices().catch(() => undefined);
  return scrapeResponse(req.headers.get('authorization'), token, localeOfRequest(req));
}

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
