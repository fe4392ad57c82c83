/**
 * POST /api/sign-out-everywhere: ends every session of the signed-in API key — this browser's, the
 * others', a script's, a copied cookie's — and deletes the secret any of its local histories kept to
 * go on copying while signed out; answers how many of each (`{"ended": 3, "keptSecretsDeleted": 1}`).
 * For a team person, every session of theirs only, and no kept secret (the account and its local
 * history are the team's, not theirs to sign out). Each ended session's next request meets sign-in.
 * Refused from another site, like everything that changes what the account owns.
 */
import { json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { endPersonSessions } from '@/lib/auth/server';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = withAccount(
  async (_req, account, services) =>
    json(
      account.team
        ? {
            ended: await endPersonSessions(services.vault, account.team.person, 'signed-out-everywhere'),
            keptSecretsDeleted: 0,
          }
        : await services.signOutEverywhere(account.apiKey),
    ),
  { refuseCrossSite: true },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['POST']);
