/**
 * Runs before every page request (Next.js "proxy", formerly middleware). It only passes facts on —
 * it checks no session: route handlers and the signed-in layout do that themselves.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { REQUEST_PATH_HEADER } from './lib/http/request-path';

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  // The signed-in layout sends a person to sign-in and back to this very view.
  headers.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only: not the API, Next's own files or the icon.
  matcher: ['/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)'],
};
