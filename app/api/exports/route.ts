/**
 * POST /api/exports: the query's parameters (the upstream's names) plus `columns` → 201 with the job
 * and its Location; with `"dryRun": true` → 200 with what it would cost, nothing created. The body
 * is read and checked before the handler runs (lib/exports/export-request.ts `exportRequestOf`).
 * GET /api/exports: the account's jobs, newest first.
 */
import { json } from '@/lib/http/problem';
import { queryBody } from '@/lib/query/query';
import { msg } from '@/lib/i18n/message';
import { maskedRoleChecked, withAccount } from '@/lib/root/with-account';
import { estimateSaid, exportRequestOf, jobSaid } from '@/lib/exports/server';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { API_PATHS } from '@/lib/http/paths';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const EXPORTS = { least: 'support', what: msg('team.problems.roleNeeded.whatExport') } as const;

/** The export's body, checked; for a masked role, what it may not ask refused as a search's is. */
const exportRequest = maskedRoleChecked(exportRequestOf, (request) => request.query);

// A person's words in the request's language (lib/exports/said.ts); the rest as it is.
export const GET = withAccount(
  async (req, account, { exports, team }) => {
    const locale = localeOfRequest(req, account);
    return json({ jobs: (await exports.list(team.exportAccount(account))).map((job) => jobSaid(job, locale)) });
  },
  { role: EXPORTS },
);

export const POST = withAccount(
  async (req, account, { exports, team }, _context, request) => {
    const locale = localeOfRequest(req, account);
    const result = await exports.create(team.exportAccount(account), request);
    if (result.kind === 'estimate') return json(estimateSaid(result.estimate, locale));
    await team.audit(account, 'export', { query: queryBody(request.query), detail: result.job.id });
    return json(jobSaid(result.job, locale), {
      status: 201,
      headers: { Location: API_PATHS.export(result.job.id) },
    });
  },
  { refuseCrossSite: true, query: exportRequest, role: EXPORTS },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'POST']);
