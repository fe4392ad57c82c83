import 'server-only';
/**
 * GET /api/metrics: the registry in Prometheus' text format, for a scraper holding METRICS_TOKEN
 * (`Authorization: Bearer <token>`). Without METRICS_TOKEN the endpoint does not exist (404), so a
 * deployment that never set one shows nothing. The token is compared in constant time (both sides
 * hashed first, so not even its length leaks), and a refusal says what to send, not what was wrong.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { notFound, problemResponse } from '../http/problem';
import type { Locale } from '../i18n/locales';
import { msg } from '../i18n/message';
import { metrics } from './registry';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether `authorization` is `Bearer <token>`, in time that does not depend on how close a guess came. */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return timingSafeEqual(digest(m?.[1] ?? ''), digest(token)) && m !== null;
}

/** `locale`: the request's (lib/i18n/request-locale.ts), for the words of a refusal. */
export async function scrapeResponse(
  authorization: string | null,
  token: string | undefined,
  locale: Locale,
): Promise<Response> {
  if (!token) return problemResponse(notFound(msg('problems.metrics.noEndpoint')).spec, locale);
  if (!bearerMatches(authorization, token)) {
    return problemResponse(
      {
        type: '/problems/metrics-unauthorized',
        title: msg('problems.metrics.unauthorized.title'),
        status: 401,
        detail: msg('problems.metrics.unauthorized.detail'),
      },
      locale,
      { 'WWW-Authenticate': 'Bearer realm="metrics"' },
    );
  }
  const registry = metrics().registry;
  return new Response(await registry.metrics(), {
    headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
  });
}
