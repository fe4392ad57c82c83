/**
 * GET /api/audit?from=&to=&actor=&action=&number=&before=&tz=: the audit log, newest first, as
 * `{"entries": [{"at", "actor", "role", "action", "trxId", "reason", "query", …}], "next"}` (`next`:
 * the URL of the older entries, null at the end). `number` finds every entry about a phone number
 * (a search by it, a reveal of one of its records) through the keyed hash the log keeps, never the
 * number itself. `Accept: text/csv` answers the filtered entries as CSV (up to 10,000). Admins only.
 */
import type { NextRequest } from 'next/server';
import { badRequest, json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { wantsCsv } from '@/lib/search/server';
import { auditCsv, parseAuditRequest } from '@/lib/team/server';
import { API_PATHS } from '@/lib/http/paths';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const PAGE = 100;
const CSV_MAX = 10_000;

export const GET = withAccount(
  async (req: NextRequest, _account, { team }) => {
    const parsed = parseAuditRequest(req.nextUrl.searchParams);
    if (!parsed.ok) throw badRequest(parsed.errors);
    if (wantsCsv(req)) {
      const { entries } = await team.auditLog(parsed.request, CSV_MAX);
      return new Response(auditCsv(entries), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="audit_${new Date().toISOString().slice(0, 10)}.csv"`,
          Vary: 'Accept',
        },
      });
    }
    const { entries, before } = await team.auditLog(parsed.request, PAGE);
    let next: string | null = null;
    if (before !== null) {
      const params = new URLSearchParams(req.nextUrl.searchParams);
      params.set('before', String(before));
      next = `${API_PATHS.audit}?${params.toString()}`;
    }
    return json({ entries, next }, { headers: { Vary: 'Accept' } });
  },
  { role: { least: 'admin', what: 'Reading the audit log' } },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
