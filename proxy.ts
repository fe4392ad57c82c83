/**
 * Runs before every page (not the API: see `config`) and only sets headers: a Content-Security-
 * Policy with a fresh nonce, HSTS over https (lib/http/security-headers.ts), and the requested path
 * for the signed-in layout (lib/http/request-path.ts). It checks no session: the signed-in layout
 * and every route handler do that themselves.
 *
 * The nonce goes on the request's CSP header too: Next.js reads it there while rendering and
 * stamps it on its own scripts. That needs every page rendered per request (app/layout.tsx).
 */
import { NextResponse, type NextRequest } from 'next/server';
import { getConfig } from '@/lib/config';
import { REQUEST_PATH_HEADER } from '@/lib/http/request-path';
import { contentSecurityPolicy, newNonce, strictTransportSecurity } from '@/lib/http/security-headers';

export function proxy(request: NextRequest): NextResponse {
  const publicUrl = getConfig().NEXTAUTH_URL;
  const policy = contentSecurityPolicy({
    nonce: newNonce(),
    development: process.env.NODE_ENV !== 'production',
    publicUrl,
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('Content-Security-Policy', policy);
  // The signed-in layout sends a person to sign-in and back to this very view.
  requestHeaders.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', policy);
  const hsts = strictTransportSecurity(publicUrl);
  if (hsts) response.headers.set('Strict-Transport-Security', hsts);
  return response;
}

export const config = {
  matcher: [
    {
      // Not the API: Next.js buffers the whole body of any request the proxy sees (up to 10 MB)
      // before the handler runs, which would defeat the body limits (lib/http/body-limit.ts); and a
      // JSON or CSV answer runs no script. Not the build's static files, nor prefetches (no
      // document is made from them).
      source: '/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
