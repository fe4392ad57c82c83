/**
 * GET /api/team/accounts: the accounts the server holds for the team (never a secret).
 * POST /api/team/accounts with `{"apiKey", "secret", "enterpriseId"?, "label"?}`: adds one, its
 * secret sealed at once. On the audit log. Admins only.
 */
import type { NextRequest } from 'next/server';
import { readJsonBody } from '@/lib/http/body-limit';
import { badRequest, json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { signInProblems } from '@/lib/auth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const ACCOUNTS = { least: 'admin', what: 'Managing the team\u2019s accounts' } as const;

export const GET = withAccount(async (_req, _account, { team }) => json({ accounts: await team.accounts() }), {
  role: ACCOUNTS,
});

export const POST = withAccount(
  async (req: NextRequest, account, { team }) => {
    const body = (await readJsonBody(
      req,
      4 * 1024,
      'Send apiKey, secret and the optional enterpriseId and label, as JSON.',
      '{"apiKey": "ops-key", "secret": "…", "enterpriseId": "ent-1", "label": "Operations"}',
    )) as Record<string, unknown> | null;
    const text = (name: string) => (typeof body?.[name] === 'string' ? (body[name] as string) : '');
    const input = {
      apiKey: text('apiKey').trim(),
      apiSecret: text('secret'),
      enterpriseId: text('enterpriseId').trim(),
    };
    // The sign-in form's rules for a key, a secret and an enterprise: one rule for what one is.
    const problems: Record<string, string> = { ...signInProblems(input) };
    if (problems.apiSecret) problems.secret = problems.apiSecret;
    delete problems.apiSecret;
    if (text('label').length > 80) problems.label = 'A label has at most 80 characters.';
    if (Object.keys(problems).length > 0) throw badRequest(problems);
    const added = await team.addAccount(account, {
      label: text('label').trim(),
      apiKey: input.apiKey,
      enterpriseId: input.enterpriseId || null,
      secret: input.apiSecret,
    });
    return json(added, { status: 201 });
  },
  { refuseCrossSite: true, role: ACCOUNTS },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'POST']);
