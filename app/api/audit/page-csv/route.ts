/**
 * POST /api/audit/page-csv with `{"query": "<the page's query string>", "rows": 25}`: the page says it
 * wrote the rows on screen as CSV (made in the browser from rows it already holds, so no other
 * request would tell), and a team person's download goes on the audit log with its query (numbers
 * masked, a full number as its keyed hash). A personal session's is not recorded: 204 either way.
 */
import type { NextRequest } from 'next/server';
import { readJsonBody } from '@/lib/http/body-limit';
import { badRequest } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = withAccount(
  async (req: NextRequest, account, { team }) => {
    const body = (await readJsonBody(
      req,
      8 * 1024,
      'Send only query (the page’s query string) and rows, as JSON.',
      '{"query": "date-from=2026-11-01+00%3A00%3A00&date-to=2026-11-02+00%3A00%3A00", "rows": 25}',
    )) as Record<string, unknown> | null;
    const query = typeof body?.query === 'string' ? body.query : null;
    const rows = typeof body?.rows === 'number' && Number.isInteger(body.rows) && body.rows >= 0 ? body.rows : null;
    if (query === null) throw badRequest({ query: 'query must be the page’s query string.' });
    if (rows === null) throw badRequest({ rows: 'rows must be the number of rows written.' });
    await team.audit(account, 'page-csv', { query: new URLSearchParams(query), detail: `${rows} rows on screen` });
    return new Response(null, { status: 204 });
  },
  { refuseCrossSite: true, role: { least: 'support', what: 'Downloading the rows on screen' } },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['POST']);
