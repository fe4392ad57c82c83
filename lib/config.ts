import 'server-only';
/**
 * Every environment variable the server reads, with the default that serves the demo. The README's
 * configuration table lists the same names; `npm test` checks that it does (lib/config.test.ts).
 */
import path from 'node:path';
import { z } from 'zod';

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** A PostgreSQL connection URL (the store's other backend; see lib/store/db/open-database.ts). */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

export const configSchema = z.object({
  UPSTREAM_BASE_URL: z.url().default('http://127.0.0.1:4010'),
  UPSTREAM_TIMEOUT_MS: int(20_000, 100),
  UPSTREAM_MAX_IN_FLIGHT: int(1, 1),
  UPSTREAM_LIMIT_PER_MINUTE: int(3, 1),
  UPSTREAM_LIMIT_PER_HOUR: int(10, 1),
  UPSTREAM_LIMIT_PER_DAY: int(100, 1),
  /**
   * The same windows for the whole deployment: the upstream counts calls per user *or IP*, and
   * every account's calls leave from this server's IP. Raise them only if your upstream counts per
   * account alone.
   */
  UPSTREAM_IP_LIMIT_PER_MINUTE: int(3, 1),
  UPSTREAM_IP_LIMIT_PER_HOUR: int(10, 1),
  UPSTREAM_IP_LIMIT_PER_DAY: int(100, 1),
  /** The upstream's largest page size (undocumented; the seed recommends at most 100). */
  UPSTREAM_PAGE_SIZE: int(100, 1),
  /** Calls per hour that background work (exports) leaves for people. */
  UPSTREAM_BACKGROUND_RESERVE: int(3, 0),
  /** How long a person's request may wait for its turn before it is answered 429. */
  UPSTREAM_QUEUE_WAIT_MS: int(20_000, 0),
  /** Renew the upstream token this long before it expires. */
  UPSTREAM_TOKEN_RENEW_BEFORE_MS: int(60_000, 0),
  /** A range that ended more than this long ago is settled: its records no longer change. */
  CACHE_SETTLED_AFTER_HOURS: int(72, 0),
  CACHE_SETTLED_TTL_HOURS: int(24 * 30, 0),
  /** How long a page of a range that touches the last hours is served before it is fetched again. */
  CACHE_RECENT_TTL_SECONDS: int(120, 0),
  DATA_DIR: z.string().min(1).default('data'),
  /**
   * PostgreSQL for the durable store (several instances share it); unset, the SQLite file in
   * DATA_DIR (one instance). Set but empty counts as unset. The message never repeats the value: it
   * may hold a password.
   */
  DATABASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().refine(isPostgresUrl, 'must be a postgres:// URL').optional()),
  NEXTAUTH_SECRET: z.string().min(1).optional(),
  NEXTAUTH_URL: z.string().optional(),
  SESSION_MAX_AGE_HOURS: int(12, 1),
  EXPORT_RETENTION_DAYS: int(7, 0),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = z.infer<typeof configSchema> & { dataDir: string };

let cached: Config | undefined;

/** Reads the environment once; a bad value stops the server with a message naming the variable. */
export function getConfig(env: NodeJS.ProcessEnv = process.env): Config {
  if (cached && env === process.env) return cached;
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
  if (env === process.env) cached = config;
  return config;
}

export interface WindowLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

/** The upstream's windows as configured: per account, and for the whole deployment (per IP). */
export function upstreamLimits(c: Pick<Config, `UPSTREAM_${'' | 'IP_'}LIMIT_PER_${'MINUTE' | 'HOUR' | 'DAY'}`>): { account: WindowLimits; deployment: WindowLimits } {
  return {
    account: { perMinute: c.UPSTREAM_LIMIT_PER_MINUTE, perHour: c.UPSTREAM_LIMIT_PER_HOUR, perDay: c.UPSTREAM_LIMIT_PER_DAY },
    deployment: { perMinute: c.UPSTREAM_IP_LIMIT_PER_MINUTE, perHour: c.UPSTREAM_IP_LIMIT_PER_HOUR, perDay: c.UPSTREAM_IP_LIMIT_PER_DAY },
  };
}
