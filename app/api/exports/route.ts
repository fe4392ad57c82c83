/**
 * POST /api/exports: the query's parameters (the upstream's names) plus `columns` → 201 with the job
 * and its Location; with `"dryRun": true` → 200 with what it would cost, nothing created.
 * GET /api/exports: the account's jobs, newest first.
 */
import type { NextRequest } from 'next/server';
import { readJsonBody } from '@/lib/http/body-limit';
import { json } from '@/lib/http/problem';
import { checkQueryOf, withAccount } from '@/lib/root/with-account';
import { API_PATHS } from '@/lib/http/paths';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The query's parameters and a list of columns fit in far less; a larger body is not an export request. */
const EXPORT_BODY_LIMIT = 16 * 1024;
const EXPORT_BODY_HINT = 'Send only the query\u2019s parameters, `columns` and `dryRun` as JSON.';

const EXPORTS = { least: 'support', what: 'Exporting records' } as const;

export const GET = withAccount(
  async (_req, account, { exports, team }) => json({ jobs: await exports.list(team.exportAccount(account)) }),
  { role: EXPORTS },
);

export const POST = withAccount(
  async (req: NextRequest, account, { exports, team }) => {
    const body = await readJsonBody(
      req,
      EXPORT_BODY_LIMIT,
      EXPORT_BODY_HINT,
      '{"date-from": "2026-11-01 00:00:00", "date-to": "2026-11-08 00:00:00"}',
    );
    // The query is in the body: a masked role's is checked here as a URL's is by the wrapper.
    const params = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    checkQueryOf(account, params);
    const result = await exports.create(team.exportAccount(account), body);
    if (result.kind === 'estimate') return json(result.estimate);
    await team.audit(account, 'export', { query: params, detail: result.job.id });
    return json(result.job, { status: 201, headers: { Location: API_PATHS.export(result.job.id) } });
  },
  { refuseCrossSite: true, role: EXPORTS },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'POST']);
