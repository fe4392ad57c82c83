/**
 * /__admin/*: the test harness's levers (stats, reset, faults). Not part of the upstream; answers
 * only to loopback clients, so a simulator bound to a public address cannot be steered from outside.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, isLoopback, readBody, sendJson } from './http';
import { parseFaultSpec, type FaultSpec } from './faults';
import type { SimStats } from './stats';
import { PAGE_SIZE_OVER, type PageSizeLimit } from './params';

export const ADMIN_PREFIX = '/__admin/';

export interface AdminContext {
  stats(): SimStats;
  resetStats(): void;
  setFaults(f: FaultSpec): void;
  clearFaults(): void;
  currentFaults(): unknown;
  pageSizeLimit(): PageSizeLimit;
  setPageSizeLimit(limit: Partial<PageSizeLimit>): void;
  /** Rotates an account's secret; false when no account has that key. */
  setSecret(apiKey: string, secret: string): boolean;
  /**
   * Lifts the rate limits (false) or puts them back (true) with empty windows: what was sent while
   * they were lifted counts in none. False when the simulator runs without limits anyway.
   */
  setLimits(enabled: boolean): boolean;
  resetSecrets(): void;
}

export async function handleAdmin(
  ctx: AdminContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<number> {
  const reply = (status: number, body: unknown, headers?: Record<string, string>) => {
    sendJson(res, status, body, headers);
    return status;
  };
  if (!isLoopback(req.socket.remoteAddress))
    return reply(403, errorBody(403, 'the admin endpoints answer to loopback clients only'));
  const method = req.method ?? 'GET';
  const allow = (methods: string) =>
    reply(405, errorBody(405, `${method} is not allowed here; use ${methods}`), { Allow: methods });

  switch (path) {
    case `${ADMIN_PREFIX}stats`:
      if (method !== 'GET') return allow('GET');
      return reply(200, ctx.stats());
    case `${ADMIN_PREFIX}reset`:
      if (method !== 'POST') return allow('POST');
      ctx.resetStats();
      return reply(200, { ok: true });
    case `${ADMIN_PREFIX}faults`: {
      if (method === 'GET') return reply(200, { faults: ctx.currentFaults() });
      if (method === 'DELETE') {
        ctx.clearFaults();
        return reply(200, { ok: true });
      }
      if (method !== 'POST') return allow('GET, POST, DELETE');
      let input: unknown;
      try {
        input = JSON.parse(await readBody(req));
      } catch {
        return reply(400, errorBody(400, 'the body must be a JSON fault spec'));
      }
      const parsed = parseFaultSpec(input);
      if (!parsed.ok) return reply(400, errorBody(400, parsed.message));
      ctx.setFaults(parsed.spec);
      return reply(200, { ok: true, faults: ctx.currentFaults() });
    }
    case `${ADMIN_PREFIX}page-size`: {
      // The largest page-size served and what happens above it, changed while running (an
      // upstream that accepted 1,000 a page and refuses it later): {"max": 100, "over": "refuse"}.
      if (method === 'GET') return reply(200, ctx.pageSizeLimit());
      if (method !== 'POST') return allow('GET, POST');
      let input: { max?: unknown; over?: unknown };
      try {
        input = JSON.parse(await readBody(req)) as typeof input;
      } catch {
        return reply(400, errorBody(400, 'the body must be JSON: {"max": 100, "over": "refuse"}'));
      }
      const maxOk = input?.max === undefined || (Number.isSafeInteger(input.max) && (input.max as number) >= 1);
      const overOk = input?.over === undefined || (PAGE_SIZE_OVER as readonly unknown[]).includes(input.over);
      if (!maxOk || !overOk)
        return reply(400, errorBody(400, `max must be a whole number >= 1, over one of ${PAGE_SIZE_OVER.join(', ')}`));
      ctx.setPageSizeLimit({
        ...(input.max !== undefined ? { max: input.max as number } : {}),
        ...(input.over !== undefined ? { over: input.over as PageSizeLimit['over'] } : {}),
      });
      return reply(200, ctx.pageSizeLimit());
    }
    case `${ADMIN_PREFIX}limits`: {
      if (method !== 'POST') return allow('POST');
      let input: { enabled?: unknown };
      try {
        input = JSON.parse(await readBody(req)) as typeof input;
      } catch {
        return reply(400, errorBody(400, 'the body must be JSON: {"enabled": true} or {"enabled": false}'));
      }
      if (typeof input?.enabled !== 'boolean') return reply(400, errorBody(400, 'enabled must be true or false'));
      if (!ctx.setLimits(input.enabled))
        return reply(409, errorBody(409, 'this simulator runs without limits (--no-limits): there are none to lift'));
      return reply(200, { ok: true, limits: input.enabled });
    }
    case `${ADMIN_PREFIX}secrets`: {
      if (method === 'DELETE') {
        ctx.resetSecrets();
        return reply(200, { ok: true });
      }
      if (method !== 'POST') return allow('POST, DELETE');
      let input: { apiKey?: unknown; secret?: unknown };
      try {
        input = JSON.parse(await readBody(req)) as typeof input;
      } catch {
        return reply(400, errorBody(400, 'the body must be JSON: {"apiKey": "…", "secret": "…"}'));
      }
      if (typeof input?.apiKey !== 'string' || typeof input.secret !== 'string' || input.secret === '') {
        return reply(400, errorBody(400, 'apiKey and secret must be strings, the secret not empty'));
      }
      if (!ctx.setSecret(input.apiKey, input.secret))
        return reply(404, errorBody(404, `no account has the API key ${input.apiKey.slice(0, 64)}`));
      return reply(200, { ok: true });
    }
    default:
      return reply(404, errorBody(404, `no admin endpoint ${path}`));
  }
}
