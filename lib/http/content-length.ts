import 'server-only';
/**
 * A file's length, for the browser's download bar. Next.js 16 drops `Content-Length` from every
 * route handler's answer (send-response.ts: a body fetch decoded may no longer match it), so a
 * 50 MB export arrived chunked, with no total and no progress. A handler that knows its body's
 * exact length says so under CONTENT_LENGTH_HEADER instead; the startup hook (instrumentation.ts)
 * makes Node's response write it as `Content-Length`. Only this process's handlers set response
 * headers, so there is nothing a client could forge.
 */
import http from 'node:http';

export const CONTENT_LENGTH_HEADER = 'x-dashboard-content-length';

const INSTALLED = Symbol.for('sms-dashboard.content-length');
const holder = globalThis as unknown as { [INSTALLED]?: true };

/** From now on, every response of this process writes CONTENT_LENGTH_HEADER as Content-Length. Idempotent. */
export function installContentLength(): void {
  if (holder[INSTALLED]) return;
  holder[INSTALLED] = true;
  const proto = http.ServerResponse.prototype;
  for (const method of ['setHeader', 'appendHeader'] as const) {
    const original = proto[method] as (
      this: http.ServerResponse,
      name: string,
      value: number | string | readonly string[],
    ) => http.ServerResponse;
    proto[method] = function lengthAware(
      this: http.ServerResponse,
      name: string,
      value: number | string | readonly string[],
    ) {
      if (name.toLowerCase() === CONTENT_LENGTH_HEADER) return original.call(this, 'content-length', value);
      return original.call(this, name, value);
    } as (typeof proto)[typeof method];
  }
}
