import 'server-only';
/**
 * Every environment variable the server reads, with the default that serves the demo. The README's
 * configuration table lists the same names; `npm test` checks that it does (lib/config.test.ts).
 */
import path from 'node:path';
import { z } from 'zod';
import { MINUTE_MS } from './time/units';

/**
 * A variable set to nothing (`VAR=` in an env file) counts as unset: its default. Read as a number,
 * it would be 0 — a recent range cached for a month, an export deleted as it is finished.
 */
const unsetIfEmpty = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const int = (fallback: number, min = 0) =>
  z.preprocess(unsetIfEmpty, z.coerce.number().int().min(min).default(fallback));
const share = (fallback: number) => z.preprocess(unsetIfEmpty, z.coerce.number().min(0).max(1).default(fallback));
/** Unset or empty: off. */
const optionalInt = (min = 1) => z.preprocess(unsetIfEmpty, z.coerce.number().int().min(min).optional());

/** The longest UPSTREAM_WINDOW_MARGIN_MS: the governor keeps a day of calls and this much more (lib/governor/windows.ts). */
export const MAX_WINDOW_MARGIN_MS = MINUTE_MS;

/** NEXTAUTH_SECRET's shortest length: it encrypts the session cookie and seals the stored API secrets. */
export const MIN_SECRET_LENGTH = 32;

/** A PostgreSQL connection URL (the store's other backend; see lib/db/open-database.ts). */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/**
 * An http(s) URL. zod's `url()` alone takes `localhost:4501` (the scheme forgotten) as a URL whose
 * scheme is `localhost:`; the message says what is wanted, by example.
 */
const httpUrl = (example: string) =>
  z
    .url()
    .refine((u) => /^https?:\/\/[^/]/i.test(u), `must be an http:// or https:// URL with its scheme, e.g. ${example}`);

const PAGE_SIZE_WORDS = 'must be auto or a whole number of at least 1 (e.g. 100)';

export const configSchema = z
  .object({
    UPSTREAM_BASE_URL: z.preprocess(
      unsetIfEmpty,
      httpUrl('https://report-api.example.com/v1').default('http://127.0.0.1:4010'),
    ),
    UPSTREAM_TIMEOUT_MS: int(20_000, 100),
    UPSTREAM_MAX_IN_FLIGHT: int(1, 1),
    UPSTREAM_LIMIT_PER_MINUTE: int(3, 1),
    UPSTREAM_LIMIT_PER_HOUR: int(10, 1),
    UPSTREAM_LIMIT_PER_DAY: int(100, 1),
    /**
     * Windows for the whole deployment, for an upstream that counts calls per client IP (every
     * account's calls leave from this server's IP). Unset: off — the default reading is that the
     * rate windows are per account (README, "Whose limits").
     */
    UPSTREAM_IP_LIMIT_PER_MINUTE: optionalInt(),
    UPSTREAM_IP_LIMIT_PER_HOUR: optionalInt(),
    UPSTREAM_IP_LIMIT_PER_DAY: optionalInt(),
    /** Share of each deployment window kept for accounts that have not used it yet. */
    UPSTREAM_IP_HOLDBACK_SHARE: share(0.2),
    /** Token requests (sign-ins and renewals) a minute, for the whole deployment. */
    UPSTREAM_TOKEN_LIMIT_PER_MINUTE: int(10, 1),
    /** How much longer than its window a call is counted: the upstream counts a call when it arrives. */
    UPSTREAM_WINDOW_MARGIN_MS: int(1000, 0).pipe(z.number().max(MAX_WINDOW_MARGIN_MS)),
    /**
     * The page size background reads (the local history's copy, exports) ask the upstream for:
     * `auto` finds the largest it accepts with one probe (lib/history/sync-page-size.ts); a number
     * pins it. The upstream documents no maximum (the seed recommends 25 to 100).
     */
    UPSTREAM_PAGE_SIZE: z.preprocess(
      unsetIfEmpty,
      z
        .union([z.literal('auto'), z.coerce.number().int().min(1, PAGE_SIZE_WORDS)], { error: PAGE_SIZE_WORDS })
        .default('auto'),
    ),
    /** The page size `auto` asks for first (comparable CDR APIs accept up to 1,000). */
    UPSTREAM_PAGE_SIZE_PROBE: int(1000, 2),
    /** Calls of each hour and day that background work (exports, the local history) leaves for people. */
    UPSTREAM_BACKGROUND_RESERVE: int(3, 0),
    /** The largest share of any window the local history's sync may take. */
    HISTORY_MAX_SHARE: share(0.6),
    /** The oldest day the local history may copy, in days back from today (enforced every day). */
    HISTORY_MAX_DAYS: int(400, 1),
    /** The days back the local history starts from when a person turns it on without saying. */
    HISTORY_DEFAULT_DAYS: int(31, 1),
    /** How long a person's request may wait for its turn before it is answered 429. */
    UPSTREAM_QUEUE_WAIT_MS: int(20_000, 0),
    /** Renew the upstream token this long before it expires. */
    UPSTREAM_TOKEN_RENEW_BEFORE_MS: int(60_000, 0),
    /** A range that ended more than this long ago is settled: its records no longer change. */
    CACHE_SETTLED_AFTER_HOURS: int(72, 0),
    CACHE_SETTLED_TTL_HOURS: int(24 * 30, 0),
    /** How long a page of a range that touches the last hours is served before it is fetched again. */
    CACHE_RECENT_TTL_SECONDS: int(120, 0),
    DATA_DIR: z.preprocess(unsetIfEmpty, z.string().min(1).default('data')),
    /**
     * PostgreSQL for the durable store (several instances share it); unset, the SQLite file in
     * DATA_DIR (one instance). Set but empty counts as unset. The message never repeats the value: it
     * may hold a password.
     */
    DATABASE_URL: z.preprocess(unsetIfEmpty, z.string().refine(isPostgresUrl, 'must be a postgres:// URL').optional()),
    NEXTAUTH_SECRET: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .min(
          MIN_SECRET_LENGTH,
          `must be at least ${MIN_SECRET_LENGTH} characters: it encrypts the session cookie and seals the stored API secrets. Make one with \`openssl rand -base64 32\`.`,
        )
        .optional(),
    ),
    /**
     * The dashboard's public URL. Without its scheme next-auth reads it as https and names its cookies
     * `__Secure-…`, which the session check of a plain-http address never finds: every sign-in "works"
     * and no page opens.
     */
    NEXTAUTH_URL: z.preprocess(unsetIfEmpty, httpUrl('https://sms.example.com').optional()),
    SESSION_MAX_AGE_HOURS: int(12, 1),
    /**
     * Sign-in throttling (lib/auth/throttle-rules.ts): failed sign-ins a key, and a client address,
     * may have before each further one waits, the wait after the first of those, doubling after each
     * further failure up to the longest, and how long without a failure before a streak is forgotten.
     */
    SIGN_IN_FAILURES_PER_KEY: int(5, 1),
    SIGN_IN_FAILURES_PER_ADDRESS: int(20, 1),
    SIGN_IN_FIRST_WAIT_SECONDS: int(60, 1),
    SIGN_IN_MAX_WAIT_SECONDS: int(3600, 1),
    SIGN_IN_FAILURE_WINDOW_MINUTES: int(15, 1),
    /**
     * Reverse proxies in front of the dashboard that add the address they were reached from to
     * X-Forwarded-For. 0: none — the header is the client's to write and is not read (lib/http/client-address.ts).
     */
    TRUST_PROXY_HOPS: int(0, 0),
    EXPORT_RETENTION_DAYS: int(7, 0),
    /**
     * Team mode (lib/team): people sign in with the organisation's OpenID Connect provider and work
     * on accounts the server holds. On when OIDC_ISSUER is set; then the client and the first
     * account are required (see the refinements below).
     */
    OIDC_ISSUER: z.preprocess(unsetIfEmpty, httpUrl('https://login.example.com/realms/sms').optional()),
    OIDC_CLIENT_ID: z.preprocess(unsetIfEmpty, z.string().optional()),
    OIDC_CLIENT_SECRET: z.preprocess(unsetIfEmpty, z.string().optional()),
    /** The provider's name on the sign-in button: "Sign in with <OIDC_NAME>". */
    OIDC_NAME: z.preprocess(unsetIfEmpty, z.string().max(60).default('your organisation')),
    /** The claim of the ID token (or userinfo) that lists the person's groups. */
    OIDC_GROUPS_CLAIM: z.preprocess(unsetIfEmpty, z.string().default('groups')),
    /** Comma-separated group names: a person in one of them gets that role (the highest wins). */
    TEAM_ADMIN_GROUPS: z.preprocess(unsetIfEmpty, z.string().default('')),
    TEAM_SUPPORT_GROUPS: z.preprocess(unsetIfEmpty, z.string().default('')),
    TEAM_VIEWER_GROUPS: z.preprocess(unsetIfEmpty, z.string().default('')),
    /** How long a role read from the provider holds before the person's next request reads it again. */
    TEAM_ROLE_TTL_SECONDS: int(300, 10),
    /** The account the team uses, held by the server (more are added on the admin page). */
    TEAM_API_KEY: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a Report API key: up to 64 letters, digits, ".", "_" or "-"')
        .optional(),
    ),
    TEAM_API_SECRET: z.preprocess(unsetIfEmpty, z.string().max(256).optional()),
    TEAM_ENTERPRISE_ID: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be an enterprise ID: up to 64 letters, digits, ".", "_" or "-"')
        .optional(),
    ),
    /** Records one person may reveal (full number and text) in any hour. */
    REVEAL_LIMIT_PER_HOUR: int(30, 1),
    /** How long the audit log keeps an entry. */
    AUDIT_RETENTION_DAYS: int(400, 1),
    /**
     * The bytes of export files one account may keep at once (finished files and those being
     * written); a new export past it is refused with words. Default 2 GiB.
     */
    EXPORT_MAX_BYTES_PER_ACCOUNT: int(2 * 1024 ** 3, 1),
    /** Exports one account may have queued, running or waiting at once, over every instance. */
    MAX_ACTIVE_EXPORTS: int(10, 1),
    /**
     * The most bytes one upstream answer may have, as sent and once decompressed; past it the call
     * is given up and the request answered 502. A page of 100 records is about 100 KB.
     */
    UPSTREAM_MAX_BODY_BYTES: int(32 * 1024 ** 2, 1024),
    /**
     * The bearer token a Prometheus scraper sends to GET /api/metrics; unset, the endpoint answers
     * 404. Never repeated in a message.
     */
    METRICS_TOKEN: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .min(
          16,
          'must be at least 16 characters: it is all that stands between the metrics and anyone. Make one with `openssl rand -hex 24`.',
        )
        .optional(),
    ),
    LOG_LEVEL: z.preprocess(unsetIfEmpty, z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info')),
    /**
     * The interface's language for a request that says nothing (no choice of the person's, no
     * Accept-Language of ours): lib/i18n/negotiate.ts. The languages of lib/i18n/locales.ts, named
     * here again because the kernel's i18n reads this file (config.test.ts checks they agree).
     */
    DEFAULT_LOCALE: z.preprocess(unsetIfEmpty, z.enum(['ja', 'en']).default('ja')),
  })
  .refine((c) => c.HISTORY_DEFAULT_DAYS <= c.HISTORY_MAX_DAYS, {
    path: ['HISTORY_DEFAULT_DAYS'],
    message:
      'must not be more than HISTORY_MAX_DAYS, the oldest day the local history may go back to: lower it, or raise HISTORY_MAX_DAYS',
  })
  // Team mode needs the whole of its setting at once: half of it would start a server nobody can use.
  .refine((c) => !c.OIDC_ISSUER || c.OIDC_CLIENT_ID, {
    path: ['OIDC_CLIENT_ID'],
    message: 'must be set with OIDC_ISSUER: the client ID the identity provider gave this dashboard',
  })
  .refine((c) => !c.OIDC_ISSUER || c.OIDC_CLIENT_SECRET, {
    path: ['OIDC_CLIENT_SECRET'],
    message: 'must be set with OIDC_ISSUER: the client secret the identity provider gave this dashboard',
  })
  .refine((c) => !c.OIDC_ISSUER || c.TEAM_API_KEY, {
    path: ['TEAM_API_KEY'],
    message: 'must be set with OIDC_ISSUER: the Report API key of the account the team works on',
  })
  .refine((c) => !c.TEAM_API_KEY || c.TEAM_API_SECRET, {
    path: ['TEAM_API_SECRET'],
    message: 'must be set with TEAM_API_KEY: the secret of that API key',
  })
  .refine((c) => !c.OIDC_ISSUER || `${c.TEAM_ADMIN_GROUPS}${c.TEAM_SUPPORT_GROUPS}${c.TEAM_VIEWER_GROUPS}`.trim(), {
    path: ['TEAM_ADMIN_GROUPS'],
    message:
      'or TEAM_SUPPORT_GROUPS or TEAM_VIEWER_GROUPS must name a group with OIDC_ISSUER: without one nobody may sign in (e.g. TEAM_ADMIN_GROUPS=sms-admins)',
  });

export type Config = z.infer<typeof configSchema> & { dataDir: string };

/** Values never repeated in a message: they may hold a password or the key that seals the stored secrets. */
const UNSAID = new Set(['DATABASE_URL', 'NEXTAUTH_SECRET', 'METRICS_TOKEN', 'OIDC_CLIENT_SECRET', 'TEAM_API_SECRET']);

/**
 * A refused variable as the operator needs to read it: its name, what was typed (unless secret),
 * what is wrong in words rather than a type checker's ("expected number, received NaN"), and the
 * default as an example of a good value.
 */
function issueText(name: string, issue: z.core.$ZodIssue, env: NodeJS.ProcessEnv): string {
  // Nor a value with an `@`: a URL's user and password would be written out with it.
  const typed =
    UNSAID.has(name) || env[name] === undefined || env[name].includes('@')
      ? ''
      : ` (set to ${JSON.stringify(env[name])})`;
  let problem = issue.message;
  if (issue.code === 'invalid_type' && issue.expected === 'number') problem = 'must be a number';
  else if (issue.code === 'invalid_type' && issue.expected === 'int') problem = 'must be a whole number';
  const fallback = (configSchema.safeParse({}).data as Record<string, unknown> | undefined)?.[name];
  const example = fallback === undefined || typeof fallback === 'object' ? '' : `; its default is ${String(fallback)}`;
  return `${name}${typed}: ${problem}${example}`;
}

/**
 * Names a variable had before the local history was called one thing everywhere (2026-12): still
 * read for one release when the new name is unset, and said at start-up (configWarnings).
 */
export const RENAMED_VARIABLES = {
  MIRROR_MAX_SHARE: 'HISTORY_MAX_SHARE',
  MIRROR_MAX_DAYS: 'HISTORY_MAX_DAYS',
  MIRROR_DEFAULT_DAYS: 'HISTORY_DEFAULT_DAYS',
} as const;

function withRenamedVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const [old, now] of Object.entries(RENAMED_VARIABLES))
    if (unsetIfEmpty(out[now]) === undefined && unsetIfEmpty(out[old]) !== undefined) out[now] = out[old];
  return out;
}

let cached: Config | undefined;

/** Reads the environment once; a bad value stops the server with a message naming the variable. */
export function getConfig(env: NodeJS.ProcessEnv = process.env): Config {
  if (cached && env === process.env) return cached;
  const read = withRenamedVariables(env);
  const parsed = configSchema.safeParse(read);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${issueText(String(i.path[0] ?? ''), i, read)}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
  if (env === process.env) cached = config;
  return config;
}
