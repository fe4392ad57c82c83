import 'server-only';
/**
 * Reads the body of PUT /api/history before its handler runs (the route's `query` reader): any of
 * `enabled`, `since` and `keepSyncingSignedOut`, each checked — `since` a day no later than the
 * server's today and no earlier than the first day the local history may keep (./retention.ts).
 * The service then receives only a checked change.
 */
import type { HistorySettingsInput } from './api';
import type { Config } from '../config';
import { readJsonBody } from '../http/body-limit';
import { msg } from '../i18n/message';
import { noFieldErrors, type ParseResult } from '../query/query';
import { dayStart } from './days';
import { sinceBounds } from './retention';

const BODY_LIMIT = 4 * 1024;
const BODY_HINT = msg('history.settings.bodyHint');
const BODY_EXAMPLE = '{"enabled": true, "since": "2026-10-01"}';
const KNOWN_KEYS = new Set(['enabled', 'since', 'keepSyncingSignedOut']);

/** A change of the settings checked against the server's clock (`now`) and HISTORY_MAX_DAYS. */
export function parseHistorySettings(
  body: unknown,
  rules: { now: number; maxDays: number },
): ParseResult<HistorySettingsInput> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return {
      ok: false,
      errors: {
        body: msg('history.settings.notObject', {
          example: '{"enabled": true, "since": "2026-10-01", "keepSyncingSignedOut": false}',
        }),
      },
    };
  }
  const input = body as Record<string, unknown>;
  const errors = noFieldErrors();
  for (const key of Object.keys(input))
    if (!KNOWN_KEYS.has(key)) errors[key] = msg('history.settings.unknown', { key: key.slice(0, 40) });
  for (const key of ['enabled', 'keepSyncingSignedOut'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'boolean')
      errors[key] = msg('history.settings.boolean', { key });
  }
  const { min: oldest, max: today } = sinceBounds(rules.now, rules.maxDays);
  if (input.since !== undefined) {
    if (typeof input.since !== 'string' || dayStart(input.since) === null)
      errors.since = msg('history.settings.sinceFormat');
    else if (input.since > today) errors.since = msg('history.settings.sinceFuture');
    else if (input.since < oldest)
      errors.since = msg('history.settings.sinceTooOld', { maxDays: rules.maxDays, oldest });
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const change: HistorySettingsInput = {};
  if (typeof input.enabled === 'boolean') change.enabled = input.enabled;
  if (typeof input.since === 'string') change.since = input.since;
  if (typeof input.keepSyncingSignedOut === 'boolean') change.keepSyncingSignedOut = input.keepSyncingSignedOut;
  return { ok: true, query: change };
}

/** PUT /api/history's reader: its JSON body, read under the limit and checked. */
export async function historySettingsOf(
  req: Request,
  _account: unknown,
  services: { config: Pick<Config, 'HISTORY_MAX_DAYS'> },
): Promise<ParseResult<HistorySettingsInput>> {
  const body = await readJsonBody(req, BODY_LIMIT, BODY_HINT, BODY_EXAMPLE);
  return parseHistorySettings(body, { now: Date.now(), maxDays: services.config.HISTORY_MAX_DAYS });
}
