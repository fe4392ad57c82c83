/**
 * PUT /api/team/people/<id> with `{"suspended": true}`: suspends the person at once — every session of
 * theirs ends on every instance (their next click meets sign-in, told why) and their next sign-in is
 * refused — or, with `false`, restores them. On the audit log. Admins only; not oneself.
 */
import type { NextRequest } from 'next/server';
import { readJsonBody } from '@/lib/http/body-limit';
import { badRequest, json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const PUT = withAccount<Context>(
  async (req: NextRequest, account, { team }, context) => {
    const { id } = await context.params;
    const body = await readJsonBody(req, 1024, 'Send only suspended, as JSON.', '{"suspended": true}');
    const suspended = body && typeof body === 'object' ? (body as { suspended?: unknown }).suspended : undefined;
    if (typeof suspended !== 'boolean') throw badRequest({ suspended: 'suspended must be true or false.' });
    return json(suspended ? await team.suspend(account, id) : await team.restore(account, id));
  },
  { refuseCrossSite: true, role: { least: 'admin', what: 'Suspending a person' } },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['PUT']);
