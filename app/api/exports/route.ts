/**
 * POST /api/exports: the query's parameters (the upstream's names) plus `columns` → 201 with the job
 * and its Location; with `"dryRun": true` → 200 with what it would cost, nothing created. The body
 * is read and checked before the handler runs (lib/exports/export-request.ts `exportRequestOf`).
 * GET /api/exports: the account's jobs, newest first.
 */
import { json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { exportRequestOf } from '@/lib/exports/server';
import { API_PATHS } from '@/lib/http/paths';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (_req, account, { exports }) => json({ jobs: await exports.list(account) }));

export const POST = withAccount(
  async (_req, account, { exports }, _context, request) => {
    const result = await exports.create(account, request);
    if (result.kind === 'estimate') return json(result.estimate);
    return json(result.job, { status: 201, headers: { Location: API_PATHS.export(result.job.id) } });
  },
  { refuseCrossSite: true, query: exportRequestOf },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'POST']);
