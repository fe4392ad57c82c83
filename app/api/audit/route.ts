/**
 * GET /api/audit?from=&to=&actor=&action=&number=&before=&tz=: the audit log, newest first, as
 * `{"entries": [{"at", "actor", "role", "action", "trxId", "reason", "query", …}], "next"}` (`next`:
 * the URL of the older entries, null at the end). `number` finds every entry about a phone number
 * (a search by it, a reveal of one of its records) through the keyed hash the log keeps, never the
 * number itself. `Accept: text/csv` answers the filtered entries as CSV (up to 10,000). Admins only.
 * The filters are read before the handler runs (lib/team/audit-request.ts).
 */
import type { NextRequest } from 'next/server';
import { json } from '@/lib/http/problem';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { wantsCsv } from '@/lib/search/server';
import { auditCsv, auditLogRequest, olderEntriesHref } from '@/lib/team/server';
import { API_PATHS } from '@/lib/http/paths';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const PAGE = 100;
const CSV_MAX = 10_000;

export const GET = withAccount(
  async (req: NextRequest, _account, { team }, _context, { filters, params }) => {
    if (wantsCsv(req)) {
      const { entries } = await team.auditLog(filters, CSV_MAX);
      return new Response(auditCsv(entries), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="audit_${new Date().toISOString().slice(0, 10)}.csv"`,
          Vary: 'Accept',
        },
      });
    }
    const { entries, before } = await team.auditLog(filters, PAGE);
    const next = before === null ? null : olderEntriesHref(API_PATHS.audit, params, before);
    return json({ entries, next }, { headers: { Vary: 'Accept' } });
  },
  { query: auditLogRequest, role: { least: 'admin', what: msg('team.problems.roleNeeded.whatAudit') } },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
