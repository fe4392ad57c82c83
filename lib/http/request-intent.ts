/**
 * Whether a request that can spend an upstream call was meant by the person whose session it
 * carries. A browser says where a request came from (Sec-Fetch-Site, and Origin on anything but a
 * same-origin GET); another site's page (a link, an <img>, a form, a fetch) or a sibling origin of
 * the same site (another port or subdomain, which even SameSite cookies reach) is refused before
 * anything is spent. Scripts (curl, the API's own clients) send neither header and are allowed: they
 * hold the session on purpose. Pure, so the decision table is unit-tested.
 */

export interface RequestSource {
  /** The Sec-Fetch-Site header, or null when absent. */
  secFetchSite: string | null;
  /** The Origin header, or null when absent. */
  origin: string | null;
}

/** Why the request is refused, or null when it may go on. `ownOrigins` are `scheme://host[:port]`. */
export function crossSiteRefusal(source: RequestSource, ownOrigins: readonly string[]): string | null {
  const site = source.secFetchSite?.trim().toLowerCase() ?? null;
  // `same-site` is another origin by definition (same-origin would say so): a sibling app, not us.
  if (site !== null && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  if (source.origin !== null && !ownOrigins.some((own) => sameOrigin(own, source.origin as string)))
    return 'Origin is not this dashboard';
  return null;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false; // "null" (sandboxed or opaque origins) and anything unreadable is not ours
  }
}

/**
 * The refusal for a request as it arrived: this dashboard's origins are the one the browser
 * reached (its Host header) and the public one (NEXTAUTH_URL, what a browser sees behind a
 * TLS-terminating proxy).
 */
export function crossSiteRefusalOf(req: Request & { nextUrl: URL }, publicUrl: string | undefined): string | null {
  const origins = [req.nextUrl.origin];
  const host = req.headers.get('host');
  if (host) origins.push(`${req.nextUrl.protocol}//${host}`);
  if (publicUrl) origins.push(publicUrl);
  return crossSiteRefusal(
    { secFetchSite: req.headers.get('sec-fetch-site'), origin: req.headers.get('origin') },
    origins,
  );
}
