import 'server-only';
/**
 * Pulls a short human message out of an upstream error body, whose shape is undocumented (notes.md:
 * "JSON of unknown shape, plain text or HTML"). The excerpt may reach the person using the
 * dashboard, so credentials are scrubbed from it: an upstream may echo the token it rejected.
 */
import { redactCredentialsInText } from '../log';

export const MAX_UPSTREAM_MESSAGE = 300;

/** JSON keys that conventionally hold the message, in the order they are trusted. */
const MESSAGE_KEYS = [
  'message',
  'error_description',
  'error',
  'detail',
  'details',
  'errors',
  'title',
  'reason',
  'description',
];

export function extractUpstreamMessage(
  body: string,
  contentType: string | null,
  knownSecrets: readonly string[] = [],
): string | undefined {
  const trimmed = body.trim();
  if (trimmed === '') return undefined;
  let raw: string | undefined;
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('json') || /^[{["]/.test(trimmed)) {
    try {
      raw = fromJson(JSON.parse(trimmed), 0);
    } catch {
      raw = undefined; // not JSON after all: read it as text below
    }
  }
  if (raw === undefined) {
    if (type.includes('html') || /^<(!doctype|html|head|body|\?xml)/i.test(trimmed)) raw = fromHtml(trimmed);
    else if (!/^[{[]/.test(trimmed)) raw = trimmed;
  }
  return raw === undefined ? undefined : tidy(raw, knownSecrets);
}

function fromJson(value: unknown, depth: number): string | undefined {
  if (depth > 4 || value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return undefined;
  if (Array.isArray(value)) {
    const parts = value.map((v) => fromJson(v, depth + 1)).filter((v): v is string => !!v);
    return parts.length ? parts.slice(0, 5).join('; ') : undefined;
  }
  const obj = value as Record<string, unknown>;
  for (const key of MESSAGE_KEYS) {
    const found = fromJson(obj[key], depth + 1);
    if (found) return found;
  }
  // `errors: { "date-to": ["too far"] }` (field → messages), Spring's `{ field, defaultMessage }`.
  if (depth > 0) {
    const field = typeof obj.field === 'string' ? obj.field : typeof obj.param === 'string' ? obj.param : undefined;
    const msg = fromJson(obj.defaultMessage ?? obj.msg, depth + 1);
    if (msg) return field ? `${field}: ${msg}` : msg;
    const pairs = Object.entries(obj)
      .map(([k, v]) => {
        const m = fromJson(v, depth + 1);
        return m ? `${k}: ${m}` : undefined;
      })
      .filter((v): v is string => !!v);
    if (pairs.length) return pairs.slice(0, 5).join('; ');
  }
  return undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

function fromHtml(html: string): string | undefined {
  const pick = (re: RegExp) =>
    re
      .exec(html)?.[1]
      ?.replace(/<[^>]*>/g, ' ')
      .trim() || undefined;
  const text = pick(/<title[^>]*>([\s\S]*?)<\/title>/i) ?? pick(/<h1[^>]*>([\s\S]*?)<\/h1>/i);
  return text?.replace(/&(#?\w+);/g, (m, e: string) => ENTITIES[e.toLowerCase()] ?? m);
}

function tidy(text: string, knownSecrets: readonly string[]): string | undefined {
  let out = text;
  for (const secret of knownSecrets) {
    // Even a short secret is blanked: an unreadable message is better than a leaked credential.
    if (secret) out = out.split(secret).join('[REDACTED]');
  }
  // Control characters and newlines would break a one-line log or a problem+json `detail`.
  out = redactCredentialsInText(
    out
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  if (out === '') return undefined;
  return out.length > MAX_UPSTREAM_MESSAGE ? `${out.slice(0, MAX_UPSTREAM_MESSAGE - 1)}…` : out;
}
