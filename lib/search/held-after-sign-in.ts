/**
 * A link from another site that had to pass through sign-in first (signed out, or a link straight
 * to /signin?callbackUrl=…) arrives at its page by the sign-in form's own navigation, which is not
 * cross-site: the page alone would search (or look the id up) at once. The sign-in page knows it
 * was opened from elsewhere; it leaves this mark for the next view, which then fills itself from
 * the URL and waits for the person, as a view opened straight from that link does.
 *
 * Kept in sessionStorage (this tab only), for a short while, with the path it is for, and taken
 * once. The path keeps a view drawn by a full load (server HTML to hydrate, which had no mark) from
 * taking a mark meant for another page.
 */
const KEY = 'held-after-sign-in';
/** Longer than a sign-in's navigation takes; a mark left by a sign-in whose target spends nothing goes stale. */
const VALID_MS = 30_000;

/** `target`: the path (and query) the sign-in form goes to next. */
export function holdNextView(target: string, now = Date.now()): void {
  try {
    sessionStorage.setItem(
      KEY,
      JSON.stringify({ path: new URL(target, 'http://local').pathname, until: now + VALID_MS }),
    );
  } catch {
    /* storage refused (private mode): the view is not held; the API still refuses cross-site requests */
  }
}

/** The mark taken last: React's development mode draws a view twice, and the second drawing must agree. */
let taken: { path: string; at: number } | null = null;

/** Whether the view being drawn at `path` should wait for the person; a mark for it is used up. */
export function takeHeldView(path: string, now = Date.now()): boolean {
  if (typeof window === 'undefined') return false;
  if (taken && taken.path === path && now - taken.at < 1000) return true;
  try {
    const mark = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { path?: unknown; until?: unknown } | null;
    if (!mark || mark.path !== path) return false;
    sessionStorage.removeItem(KEY);
    const held = typeof mark.until === 'number' && mark.until > now;
    if (held) taken = { path, at: now };
    return held;
  } catch {
    return false;
  }
}
