import 'server-only';
/**
 * The `route` label of a request's duration: the pattern of the page or route handler that served
 * it (`/api/transactions/[trxId]`), never the path as asked. A path carries ids (a trx_id, an export's
 * id) and whatever a client makes up; each distinct one would be a new time series, and an id is
 * not for a monitoring system to keep.
 *
 * The patterns are the build's own (`routes-manifest.json` in the build folder: every static route
 * and each dynamic one with its regex), read once. Next's static files are one label each; anything
 * else (a made-up path, answered 404) is `other`.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Manifest {
  staticRoutes?: { page: string }[];
  dynamicRoutes?: { page: string; regex: string }[];
}

export type RouteLabeller = (pathname: string) => string;

const OTHER = 'other';

/** A labeller over a build's routes manifest. */
export function routeLabeller(manifest: Manifest): RouteLabeller {
  const exact = new Set((manifest.staticRoutes ?? []).map((r) => r.page));
  const dynamic = (manifest.dynamicRoutes ?? []).map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  return (pathname) => {
    if (pathname.startsWith('/_next/')) {
      const area = pathname.split('/')[2];
      return area === 'static' || area === 'image' || area === 'data' ? `/_next/${area}` : OTHER;
    }
    // A client-side navigation asks for the same route's RSC payload under a suffix.
    let p = pathname;
    const segments = p.indexOf('.segments/');
    if (segments >= 0) p = p.slice(0, segments);
    else if (p.endsWith('.rsc')) p = p.slice(0, -'.rsc'.length);
    if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
    if (p === '/index') p = '/';
    if (exact.has(p)) return p;
    for (const r of dynamic) if (r.regex.test(p)) return r.page;
    return OTHER;
  };
}

const LABELLER_KEY = Symbol.for('sms-dashboard.route-labeller');
const holder = globalThis as unknown as { [LABELLER_KEY]?: RouteLabeller };

/** The running build's labeller (NEXT_DIST_DIR, as next.config.mjs reads it); every path `other` without a build. */
export function routeLabelOf(pathname: string): string {
  if (!holder[LABELLER_KEY]) {
    const file = path.join(process.cwd(), process.env.NEXT_DIST_DIR || '.next', 'routes-manifest.json');
    let manifest: Manifest = {};
    try {
      manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    } catch {
      // No build here (tests, a tool): every path is `other`, which names nothing it should not.
    }
    holder[LABELLER_KEY] = routeLabeller(manifest);
  }
  return holder[LABELLER_KEY](pathname);
}
