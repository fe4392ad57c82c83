/**
 * The per-request security headers of every page, set by proxy.ts: the Content-Security-Policy
 * with a fresh nonce, and Strict-Transport-Security when the dashboard is served over https. The
 * headers that are the same for every response (nosniff, Referrer-Policy, X-Frame-Options,
 * Permissions-Policy) are in next.config.mjs. Pure, so the policy itself is unit-tested.
 */

export interface PolicyOptions {
  nonce: string;
  /** `next dev`: React's dev tooling needs eval, and the dev overlay injects <style> elements. */
  development: boolean;
  /** The dashboard's public URL (NEXTAUTH_URL); https adds upgrade-insecure-requests. */
  publicUrl?: string;
}

/** 128 random bits, base64: unguessable, and a valid CSP nonce-source. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

function isHttps(publicUrl: string | undefined): boolean {
  try {
    return publicUrl !== undefined && new URL(publicUrl).protocol === 'https:';
  } catch {
    return false;
  }
}

export function contentSecurityPolicy({ nonce, development, publicUrl }: PolicyOptions): string {
  const directives = [
    "default-src 'self'",
    // Next.js stamps this nonce on its own scripts (it reads it from this header on the request);
    // 'strict-dynamic' lets those load the page's chunks, and nothing else runs.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // Style elements and stylesheets: our own files (CSS modules and globals.css are served as
    // /_next/static/*.css) and Next's nonced inline styles. In development the dev overlay and hot
    // reload inject unnonced <style> elements, so there (only) inline elements are allowed.
    `style-src 'self' ${development ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    // React's style={{…}} (the progress and quota bars, the loading skeleton) reaches the page as
    // style="…" attributes in the server's HTML, which a nonce cannot cover. Allowing inline
    // *attributes* only is the narrowest rule that keeps them: an attribute styles one element, has
    // no selectors to probe the page with, and cannot load anything img-src does not allow.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (isHttps(publicUrl)) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/** Browsers keep to https for two years once they have seen the dashboard over https. */
export function strictTransportSecurity(publicUrl: string | undefined): string | null {
  return isHttps(publicUrl) ? 'max-age=63072000; includeSubDomains' : null;
}
