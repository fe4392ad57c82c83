/**
 * POST /api/sign-out-everywhere: ends every session of the signed-in API key — this browser's, the
 * others', a script's, a copied cookie's — and deletes the secret any of its local histories kept to
 * go on copying while signed out; answers how many of each (`{"ended": 3, "keptSecretsDeleted": 1}`).
 * Each ended session's next request meets sign-in. Refused from another site, like everything that
 * changes what the account owns.
 */
import { json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = withAccount(
  async (_req, account, services) => json(await services.signOutEverywhere(account.apiKey)),
  { refuseCrossSite: true },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['POST']);
