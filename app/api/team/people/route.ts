/**
 * GET /api/team/people: everyone who signed in through the identity provider — their role as last
 * read, when they were last seen, the upstream calls made for them in the last hour and day, their
 * open sessions, and whether they are suspended. Admins only.
 */
import { json } from '@/lib/http/problem';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (_req, _account, { team }) => json({ people: await team.people() }), {
  role: { least: 'admin', what: msg('team.problems.roleNeeded.whatPeople') },
});

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
