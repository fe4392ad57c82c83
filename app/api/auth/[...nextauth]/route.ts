import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { authOptions } from '@/lib/auth/server';
import { withBodyLimit } from '@/lib/http/body-limit';
import { ProblemError, problemResponse, storeUnavailableResponse } from '@/lib/http/problem';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { getServices } from '@/lib/root/services';
import { throttledSignIn } from '@/lib/root/throttled-sign-in';
import { authDepsOf } from '@/lib/root/auth-deps';
import { allowHeader, methodNotAllowed, otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth's forms (sign-in, sign-out) are a few short fields; anything larger is not one. */
const AUTH_BODY_LIMIT = 8 * 1024;
const AUTH_BODY_HINT = 'Send only the sign-in form: csrfToken, apiKey, apiSecret and the optional enterpriseId.';

// Built per request, not at import: `next build` imports this module, and the options read the
// configuration (NEXTAUTH_SECRET is required in production). No session is needed here; the body is
// read under the limit first and handed to next-auth as a new request. A sign-in (the credentials
// callback) passes the sign-in throttle first: a throttled one never reaches next-auth or the upstream.
async function handler(req: NextRequest, context: Context): Promise<Response> {
  try {
    return await handleAuth(req, context);
  } catch (err) {
    // The store out of reach (or SQLite locked past its wait) is a 503 with Retry-After, as on every
    // other route (lib/http/problem.ts), not Next.js's bare 500; anything else stays a 500.
    const unavailable = storeUnavailableResponse(err, localeOfRequest(req));
    if (!unavailable) throw err;
    return unavailable;
  }
}

async function handleAuth(req: NextRequest, context: Context): Promise<Response> {
  // Read as next-auth reads it: the action and the provider are the first two segments, and any
  // after them are ignored (callback/credentials/x signs in as well).
  const [action, provider] = (await context.params).nextauth;
  // next-auth's client reports its errors here, unsigned and unthrottled: whatever anyone sends
  // would go into the server's log as sent. The dashboard's own pages log nothing this way.
  if (action === '_log') return new Response(null, { status: 204 });
  // The credentials callback is a form's POST; next-auth answers a GET of it with a 500.
  if (action === 'callback' && provider === 'credentials' && req.method !== 'POST') {
    const { spec, headers } = methodNotAllowed(req.method, allowHeader(['POST']));
    return problemResponse(spec, localeOfRequest(req), headers);
  }
  let request: NextRequest;
  try {
    request = await withBodyLimit(req, AUTH_BODY_LIMIT, AUTH_BODY_HINT);
  } catch (err) {
    if (err instanceof ProblemError) return problemResponse(err.spec, localeOfRequest(req), err.headers);
    throw err;
  }
  const services = await getServices();
  if (req.method === 'POST' && action === 'callback' && provider === 'credentials') {
    return throttledSignIn(request, services, (attempt) =>
      NextAuth(authOptions(authDepsOf(services, attempt)))(request, context),
    );
  }
  return NextAuth(authOptions(authDepsOf(services)))(request, context);
}

export { handler as GET, handler as POST };

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'POST']);
