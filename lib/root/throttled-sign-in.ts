import 'server-only';
/**
 * next-auth's credentials callback behind the sign-in throttle (lib/auth/sign-in-throttle.ts):
 * before next-auth runs — and so before any upstream call — the attempt's API key and client
 * address are checked against their failures. A throttled attempt is answered 429 with Retry-After
 * and a problem a person can read; its `url` carries the sign-in page's code, where next-auth's
 * client (the sign-in form) reads it, so the form says "Too many sign-in attempts. Try again in 2 min."
 * An attempt let through is told by `authorize` how it ended; if next-auth never asked (a bad CSRF
 * token, a bad form), it counts for nothing.
 */
import type { NextRequest } from 'next/server';
import { signInProblems } from '../auth';
import { logFingerprint } from '../auth/server';
import { signInError, signInErrorCode } from '../auth';
import type { SignInAttempt } from '../auth/server';
import { clientAddress } from '../http/client-address';
import { stampedPeer } from '../http/peer-address';
import { problemResponse } from '../http/problem';
import { msg } from '../i18n/message';
import { localeOfRequest } from '../i18n/request-locale';
import { log } from '../log';
import { PAGE_PATHS } from '../http/paths';
import type { Services } from './services';

/**
 * The form as next-auth will read it (next-auth/next/utils.js getBody): JSON, or url-encoded fields
 * where a repeated field keeps its last value (Object.fromEntries). Read any other way, a form with
 * `apiKey` twice would be throttled under one key and checked upstream under the other.
 */
async function signInForm(req: NextRequest): Promise<Record<string, unknown> | null> {
  const type = req.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const body: unknown = await req.clone().json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  }
  if (type.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(await req.clone().text()));
  return null;
}

/** The API key of a sign-in form, or null when the form holds none that authorize would check upstream. */
async function submittedKey(req: NextRequest): Promise<string | null> {
  try {
    const raw = (await signInForm(req))?.apiKey;
    const apiKey = typeof raw === 'string' ? raw.trim() : '';
    // A key that is not one never reaches the upstream (authorize refuses the form): nothing to count.
    return signInProblems({ apiKey, apiSecret: 'x', enterpriseId: '' }).apiKey === undefined ? apiKey : null;
  } catch {
    return null;
  }
}

export function tooManyAttempts(req: NextRequest, retryAfterMs: number, publicUrl: string | undefined): Response {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const code = signInErrorCode('TooManyAttempts', seconds);
  const page = new URL(`${PAGE_PATHS.signIn}?error=${encodeURIComponent(code)}`, publicUrl ?? req.nextUrl.origin);
  return problemResponse(
    {
      type: '/problems/too-many-sign-in-attempts',
      title: msg('problems.tooManySignIns.title'),
      status: 429,
      // What the sign-in form says, then why.
      detail: msg('problems.tooManySignIns.detail', { said: signInError(code) }),
      retryAfterSeconds: seconds,
      url: page.toString(),
    },
    localeOfRequest(req),
    { 'Retry-After': String(seconds) },
  );
}

/** Runs `signIn` (next-auth) for this request unless the throttle says the attempt must wait. */
export async function throttledSignIn(
  req: NextRequest,
  services: Services,
  signIn: (attempt?: SignInAttempt) => Promise<Response>,
): Promise<Response> {
  const apiKey = await submittedKey(req);
  if (apiKey === null) return signIn();
  const address = clientAddress(
    req.headers.get('x-forwarded-for'),
    stampedPeer(req.headers),
    services.config.TRUST_PROXY_HOPS,
  );
  const decision = await services.signInThrottle.begin(apiKey, address);
  if (!decision.go) {
    // Neither the key (it may be a secret typed into the wrong field) nor the address as they are:
    // their keyed fingerprints, the same for the same value, as every other sign-in line.
    log.info('signin.throttled', {
      key: logFingerprint(apiKey),
      address: address === null ? null : logFingerprint(address),
      by: decision.by,
      waitSeconds: Math.ceil(decision.retryAfterMs / 1000),
    });
    return tooManyAttempts(req, decision.retryAfterMs, services.config.NEXTAUTH_URL);
  }
  try {
    return await signIn(decision.attempt);
  } finally {
    await decision.attempt.abandoned();
  }
}
