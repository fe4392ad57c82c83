import 'server-only';
/**
 * The server's one logger: JSON lines, stdout for debug/info and stderr for warn/error, with every
 * value passed through `redact` first. It is deliberately the only path to a log line, so the
 * redaction rules below are the only thing standing between a token and a log file: they err on the
 * side of hiding too much.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { SENSITIVE_FIELDS } from './cdr/fields';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
type Threshold = LogLevel | 'silent';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  /** A logger that adds `bindings` (e.g. a request id) to every line. */
  child(bindings: LogFields): Logger;
}

const RANK: Record<Threshold, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export const REDACTED = '[REDACTED]';

// ---------------------------------------------------------------------------------------------
// Keys whose values are never written, whatever they look like.

/**
 * Matched against the key lower-cased with everything but letters and digits removed, so
 * `jwt_token`, `X-Api-Secret`, `apiSecret` and `Set-Cookie` all hit.
 */
const SECRET_KEY = /token|jwt|secret|passw|pwd|authori[sz]ation|cookie|credential|bearer|privatekey|signature/;
/**
 * Keys that contain a secret word but hold only metadata about it (`token_valid_until`,
 * `tokenExpiresAt`): useful in logs and harmless; their values still go through the string rules.
 */
const SECRET_KEY_METADATA =
  /(validuntil|expires|expiresat|expiry|ttl|ttlms|ttlseconds|count|age|agems|length|kind|type)$/;

/** CDR fields marked sensitive in lib/cdr/fields.ts, plus the query parameter that carries a phone number. */
const squash = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');
const SENSITIVE_KEYS = new Set<string>(
  [...SENSITIVE_FIELDS, 'da', 'msisdn', 'phone', 'phone_number', 'email', 'e_mail'].map(squash),
);

function isSensitiveKey(key: string): boolean {
  const squashed = squash(key);
  if (SENSITIVE_KEYS.has(squashed)) return true;
  return SECRET_KEY.test(squashed) && !SECRET_KEY_METADATA.test(squashed);
}

// ---------------------------------------------------------------------------------------------
// Patterns that are hidden wherever they appear inside a string.

/** `Bearer <anything>` / `Basic <anything>`: the scheme stays, the credential goes. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/**
 * `token=…`, `"jwt_token":"…"`, `secret: …` inside a query string, JSON text or prose. With `=` or
 * a quoted value it is always a credential; after a bare colon only when it looks like one (8+
 * characters or a digit), so "token: expired" stays readable. `Authorization: Bearer …` is the
 * AUTH_SCHEME rule's.
 */
const KEY_VALUE =
  /\b([A-Za-z_-]*(?:token|jwt|secret|password|passwd)[A-Za-z_-]*)(["']?)(\s*[:=]\s*)(["']?)([^\s"'&,;}]+)/gi;
/** A JWT: three base64url parts (the third may be empty for an unsigned one). */
const JWT =
  /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*|\b[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g;
/**
 * A long mixed-case random-looking run (an opaque token or a secret that is not a JWT). Lower-case
 * hex, such as a trx_id, has no capital letters and is kept.
 */
const OPAQUE = /\b(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{32,}\b/g;
/** A phone number: 7+ digits in a row (an optional leading +), wherever it sits in a word… */
const PHONE = /\+?\d{7,}/g;
/** A word, or a whole UUID (an export's id): its hyphens would otherwise split it into words. */
const WORD = /[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[A-Za-z0-9+]+/gi;
const UUID = /^[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;
/**
 * …except inside a hexadecimal identifier such as a trx_id (32 hex characters): most of them hold a
 * run of 7 decimal digits somewhere, and a log in which every id is mangled is no use to support.
 */
const HEX_ID = /^[0-9a-f]{16,}$|^[0-9A-F]{16,}$/;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** Longest string written; the rest is cut so a runaway body cannot flood the log. */
const MAX_STRING = 4000;
const MAX_DEPTH = 8;
const MAX_ITEMS = 100;

/**
 * Hides credentials in free text: auth schemes, key=value pairs, JWTs and opaque tokens. Used by
 * the upstream client on the upstream's own error messages too (which may echo a token back).
 */
export function redactCredentialsInText(text: string): string {
  return text
    .replace(AUTH_SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(KEY_VALUE, (m, key: string, q1: string, sep: string, q2: string, value: string) =>
      sep.includes('=') || q2 || value.length >= 8 || /\d/.test(value) ? `${key}${q1}${sep}${q2}${REDACTED}` : m,
    )
    .replace(JWT, '[REDACTED:jwt]')
    .replace(OPAQUE, '[REDACTED:secret]');
}

/** Everything `redactCredentialsInText` hides, plus phone numbers and e-mail addresses. */
export function redactText(text: string): string {
  const cut = text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…[${text.length - MAX_STRING} more chars]` : text;
  return redactCredentialsInText(cut)
    .replace(EMAIL, '[REDACTED:email]')
    .replace(WORD, (word) =>
      UUID.test(word) || (HEX_ID.test(word) && /[a-f]/i.test(word)) ? word : word.replace(PHONE, '[REDACTED:phone]'),
    );
}

/**
 * Returns a copy of `value` safe to log: sensitive keys replaced, strings scrubbed, Errors turned
 * into plain objects (message, stack and cause scrubbed too), cycles and depth bounded.
 */
export function redact(value: unknown): unknown {
  return walk(value, 0, new WeakSet());
}

function walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'string':
      return redactText(value);
    case 'number':
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'symbol':
      return value.toString();
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
  }
  const obj = value as object;
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  if (obj instanceof URL || obj instanceof URLSearchParams) return redactText(obj.toString());
  if (ArrayBuffer.isView(obj) || obj instanceof ArrayBuffer) return `[binary ${obj.byteLength} bytes]`;
  if (seen.has(obj)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Too deep]';
  seen.add(obj);
  try {
    if (obj instanceof Error) return walkError(obj, depth, seen);
    if (Array.isArray(obj)) {
      const out = obj.slice(0, MAX_ITEMS).map((v) => walk(v, depth + 1, seen));
      if (obj.length > MAX_ITEMS) out.push(`[${obj.length - MAX_ITEMS} more items]`);
      return out;
    }
    if (obj instanceof Set) return walk([...obj], depth, seen);
    // Map and fetch's Headers both iterate as [key, value] pairs: treat them as objects so the
    // key rules (authorization, cookie) apply.
    if (obj instanceof Map || (typeof Headers !== 'undefined' && obj instanceof Headers)) {
      return walkEntries(
        [...(obj as Map<unknown, unknown>).entries()].map(([k, v]) => [String(k), v]),
        depth,
        seen,
      );
    }
    return walkEntries(Object.entries(obj), depth, seen);
  } finally {
    // Only the current path counts as a cycle; the same object twice side by side is fine.
    seen.delete(obj);
  }
}

function walkEntries(entries: [string, unknown][], depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [key, v] of entries) {
    if (n++ >= MAX_ITEMS) {
      out['…'] = `[${entries.length - MAX_ITEMS} more keys]`;
      break;
    }
    const safeKey = redactText(key);
    out[safeKey] = isSensitiveKey(key)
      ? v === undefined || v === null || v === ''
        ? v
        : REDACTED
      : walk(v, depth + 1, seen);
  }
  return out;
}

function walkError(err: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: redactText(err.message) };
  // Own enumerable fields (kind, status, code, …) go through the key rules like any object's.
  Object.assign(out, walkEntries(Object.entries(err), depth, seen));
  if (err.stack) out.stack = redactText(err.stack);
  if (err.cause !== undefined) out.cause = walk(err.cause, depth + 1, seen);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The request a line belongs to.

/**
 * Fields every line written while serving one request carries (its request id). Written as they
 * are, not redacted: only values this process made or checked belong here.
 */
export type LogContext = Readonly<LogFields>;

/**
 * One store for the process, on `globalThis`: Next.js bundles each route and the startup hook apart,
 * each with its own copy of this module, and the request's context is set by the startup hook's
 * copy (lib/http/request-id.ts) but read by the route's.
 */
const CONTEXT_KEY = Symbol.for('sms-dashboard.log-context');
const contextHolder = globalThis as unknown as { [CONTEXT_KEY]?: AsyncLocalStorage<LogContext> };
const contexts = (contextHolder[CONTEXT_KEY] ??= new AsyncLocalStorage<LogContext>());

/** Runs `fn` with `context` added to every log line written by it and by whatever it starts. */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return contexts.run(context, fn);
}

/** The fields of the request being served here, if any. */
export function logContext(): LogContext | undefined {
  return contexts.getStore();
}

// ---------------------------------------------------------------------------------------------

/** What the logger writes through; tests swap it to capture lines. */
export type LogSink = (level: LogLevel, line: string) => void;

const defaultSink: LogSink = (level, line) => {
  (level === 'warn' || level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
};

function envThreshold(): Threshold {
  const raw = (process.env.LOG_LEVEL ?? '').trim().toLowerCase();
  return Object.hasOwn(RANK, raw) ? (raw as Threshold) : 'info';
}

const RESERVED = new Set(['time', 'level', 'event']);

export interface LoggerOptions {
  /** Fixed threshold; without it LOG_LEVEL is read on every call (so tests and ops can change it). */
  level?: Threshold;
  sink?: LogSink;
  bindings?: LogFields;
  now?: () => Date;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const sink = opts.sink ?? defaultSink;
  const now = opts.now ?? (() => new Date());
  const bindings = opts.bindings ?? {};

  function write(level: LogLevel, event: string, fields?: LogFields): void {
    const threshold = opts.level ?? envThreshold();
    if (RANK[level] < RANK[threshold]) return;
    const line: Record<string, unknown> = { time: now().toISOString(), level, event: redactText(String(event)) };
    // The request's context goes in as it is (lib/http/request-id.ts checked the id it holds: the
    // text rules could otherwise cut a proxy's id apart, and the line would not match the answer).
    Object.assign(line, contexts.getStore());
    const safe = redact({ ...bindings, ...fields }) as Record<string, unknown>;
    // A field named like a line's own key is kept under another name rather than overwriting it.
    for (const [k, v] of Object.entries(safe)) line[RESERVED.has(k) || k in line ? `field_${k}` : k] = v;
    let text: string;
    try {
      text = JSON.stringify(line);
    } catch {
      text = JSON.stringify({ time: line.time, level, event: line.event, note: 'fields could not be serialised' });
    }
    try {
      sink(level, text);
    } catch {
      // Logging must never take the caller down (a closed pipe, a full disk).
    }
  }

  return {
    debug: (e, f) => write('debug', e, f),
    info: (e, f) => write('info', e, f),
    warn: (e, f) => write('warn', e, f),
    error: (e, f) => write('error', e, f),
    child: (more) => createLogger({ ...opts, bindings: { ...bindings, ...more } }),
  };
}

/** The logger every server module uses. */
export const log: Logger = createLogger();
