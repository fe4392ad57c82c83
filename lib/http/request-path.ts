/**
 * The request header through which proxy.ts hands the requested path (with its query) to server
 * components: a layout cannot read its URL otherwise, and the signed-in layout needs it to send a
 * person to sign-in and back to the same view.
 */
export const REQUEST_PATH_HEADER = 'x-dashboard-path';

/** The path a request asked for, when it is one of this site's (never another origin). */
export function safeRequestPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return null;
  return value;
}
