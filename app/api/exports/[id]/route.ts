/**
 * GET /api/exports/<id>: one job (state, progress, schedule, warnings).
 * DELETE /api/exports/<id>: cancels a job with work left (200 with the cancelled job; its records
 * and file are deleted), or deletes a finished one (204). Another account's job is a 404.
 */
import { json } from '@/lib/http/problem';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { jobSaid } from '@/lib/exports/server';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

const EXPORTS = { least: 'support', what: msg('team.problems.roleNeeded.whatExport') } as const;

export const GET = withAccount<Context>(
  async (req, account, { exports, team }, context) => {
    const { id } = await context.params;
    return json(jobSaid(await exports.get(team.exportAccount(account), id), localeOfRequest(req, account)));
  },
  { role: EXPORTS },
);

export const DELETE = withAccount<Context>(
  async (req, account, { exports, team }, context) => {
    const { id } = await context.params;
    const job = await exports.cancel(team.exportAccount(account), id);
    return job ? json(jobSaid(job, localeOfRequest(req, account))) : new Response(null, { status: 204 });
  },
  { refuseCrossSite: true, role: EXPORTS },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, OPTIONS } = otherMethodsRefused(['GET', 'DELETE']);
