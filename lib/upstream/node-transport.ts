import 'server-only';
/**
 * The upstream's GETs over Node's own `http`/`https` with kept-alive connections, instead of the
 * global `fetch`. Why: an upstream page is about 100 KB, and every page of a copy or an export waits
 * for the one before it (one call at a time). On the project's 2-core machine `fetch` (undici's
 * WHATWG layer, and inside the Next.js server its patched, traced wrapper as well) spent about
 * twice the CPU of `http.request` on each page (0.8 ms against 0.35 ms in isolation), on the path
 * every page waits on. What `fetch` did for us is kept: compressed answers are asked for and
 * decoded, a redirect is never followed, the caller's signal aborts the request, and the body is
 * read as UTF-8 with a leading BOM dropped.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

/** What lib/upstream/http.ts reads of an answer; a `fetch` Response has the same members. */
export interface TransportResponse {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface TransportRequest {
  method: 'GET';
  headers: Record<string, string>;
  signal: AbortSignal;
  /** The most bytes read of the answer, as sent and once decompressed; past it the text rejects with BodyTooLargeError. */
  maxBodyBytes?: number;
  /** Always `manual`: nothing here follows a redirect (see http.ts). */
  redirect: 'manual';
}

/** How an upstream GET is sent: `nodeTransport` in the server, a fake `fetch` in unit tests. */
export type Transport = (url: string, init: TransportRequest) => Promise<TransportResponse>;

/**
 * How long a connection may wait unused before it is closed, as `fetch` (undici) does. Calls of a
 * copy or an export follow one another within milliseconds and share one connection; at the
 * upstream's real limits they are minutes apart, and a connection idle that long may have been
 * dropped silently on the way (a NAT or a load balancer forgets it), which the next call would
 * only learn from its timeout. Such a call gets a connection of its own instead.
 */
export const IDLE_CONNECTION_MS = 4_000;

/**
 * Sent unless the request names its own: what Node's `fetch` sends, so an upstream (or its
 * firewall) that knows the dashboard by them sees the same client. Each encoding asked for is
 * decoded below (br too, should an upstream send it unasked).
 */
const DEFAULT_HEADERS: Readonly<Record<string, string>> = { 'User-Agent': 'node', 'Accept-Encoding': 'gzip, deflate' };

/**
 * An answer larger than the request's `maxBodyBytes`, as sent or once decompressed (a small gzip
 * can hold gigabytes of zeros): it is not read further, and nothing of it is kept.
 */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBodyBytes: number) {
    super(`the answer is larger than ${maxBodyBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Decoding as `fetch` (undici) decodes, leniently: a body cut short or without its gzip trailer
 * gives what it holds (the caller then finds it is not whole JSON and says "truncated?"), `deflate`
 * is read zlib-wrapped or raw (servers send both), a list of codings is undone last first, an empty
 * body (a 204, or an error answer with no text) is not decoded at all, and a coding it does not know
 * is left as it came.
 */
const LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };

function decode(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Buffer {
  const codings = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  // zlib stops at maxOutputLength rather than building the whole output first.
  const bounded = { ...LENIENT, maxOutputLength: maxBytes };
  let out = bytes;
  try {
    for (const coding of codings.reverse()) {
      if (out.length === 0) return out;
      if (coding === 'gzip' || coding === 'x-gzip') out = zlib.gunzipSync(out, bounded);
      // A zlib stream's first byte names the deflate method (8) in its low bits; raw deflate does not.
      else if (coding === 'deflate')
        out = (out[0]! & 0x0f) === 0x08 ? zlib.inflateSync(out, bounded) : zlib.inflateRawSync(out, bounded);
      else if (coding === 'br')
        out = zlib.brotliDecompressSync(out, {
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
          maxOutputLength: maxBytes,
        });
      else return out;
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new BodyTooLargeError(maxBytes);
    throw err;
  }
  return out;
}

/**
 * Read without a limit: kept only for a caller that gives none (tests); the upstream client always
 * gives UPSTREAM_MAX_BODY_BYTES.
 */
const UNBOUNDED = 2 ** 31 - 1;

/**
 * The whole body as text: bytes gathered first, so a character split between chunks stays whole.
 * At most `maxBytes` as sent (the connection is dropped past it) and once decoded.
 */
async function bodyText(res: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      // Rejected before the connection is dropped: dropping it says "closed before complete" at once.
      reject(new BodyTooLargeError(maxBytes));
      res.destroy();
      return;
    }
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        chunks.length = 0;
        reject(new BodyTooLargeError(maxBytes));
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', resolve);
    res.on('error', reject);
    // The connection closed before the body was complete (the stream itself may not say so).
    res.on('aborted', () => reject(new Error('the connection closed before the answer was complete')));
  });
  return new TextDecoder('utf-8').decode(
    decode(Buffer.concat(chunks), headerValue(res.headers['content-encoding']) ?? undefined, maxBytes),
  );
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A transport with its own pool of kept-alive connections (one per scheme: one call at a time anyway). */
export function createNodeTransport(options: { idleMs?: number } = {}): Transport {
  const timeout = options.idleMs ?? IDLE_CONNECTION_MS;
  // `timeout` closes a connection left unused that long (Node destroys an idle pooled socket on it);
  // a call waiting for its answer is bounded by its own signal instead (lib/upstream/http.ts).
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout }),
    'https:': new https.Agent({ keepAlive: true, timeout }),
  } as const;

  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const scheme = target.protocol === 'https:' ? 'https:' : target.protocol === 'http:' ? 'http:' : null;
      if (!scheme) {
        reject(new TypeError('only http and https are supported'));
        return;
      }
      const send = scheme === 'https:' ? https.request : http.request;
      const req = send(
        target,
        {
          method: init.method,
          headers: { ...DEFAULT_HEADERS, ...init.headers },
          agent: agents[scheme],
          signal: init.signal,
        },
        (res) => {
          // Read at once, with every error handled from the start: an abort or a broken connection
          // before the caller asks for the text must not leave an error event with no listener.
          const read = bodyText(res, init.maxBodyBytes ?? UNBOUNDED);
          read.catch(() => undefined);
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: { get: (name) => headerValue(res.headers[name.toLowerCase()]) },
            text: () => read,
          });
        },
      );
      // Every error of the request (a second one too, after an abort) is handled here.
      req.on('error', reject);
      req.end();
    });
}

/** The server's transport. */
export const nodeTransport: Transport = createNodeTransport();
