import 'server-only';
/**
 * Reads a request body with a byte limit, so a huge body costs neither memory nor time: a
 * Content-Length over the limit is refused before a byte is read (Node then discards the body as it
 * arrives), and a body without one (chunked) is counted while it streams and abandoned as soon as it
 * passes the limit. Either way the answer is a 413 problem that says the limit and what the endpoint
 * does take.
 *
 * The proxy (proxy.ts) must not run on these routes: Next.js buffers the whole body of any request
 * the proxy sees before the route handler gets it (up to 10 MB), which would defeat this check.
 */
import { NextRequest } from 'next/server';
import { msg, type Words } from '../i18n/message';
import { badRequest, payloadTooLarge, ProblemError } from './problem';

export async function readBodyWithLimit(
  req: Request,
  maxBytes: number,
  whatToSend: Words,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes)
    throw payloadTooLarge(maxBytes, whatToSend);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    // The rest is never read, so this connection cannot carry another request: `Connection: close`
    // tells the client, instead of its next request on it failing.
    if (total > maxBytes) throw payloadTooLarge(maxBytes, whatToSend, { Connection: 'close' });
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/**
 * The same request with its body read under the limit, for a handler (next-auth's) that reads the
 * body itself and needs a NextRequest.
 */
export async function withBodyLimit(req: NextRequest, maxBytes: number, whatToSend: Words): Promise<NextRequest> {
  if (req.method === 'GET' || req.method === 'HEAD') return req;
  const body = await readBodyWithLimit(req, maxBytes, whatToSend);
  return new NextRequest(req.url, { method: req.method, headers: req.headers, body, signal: req.signal });
}

/**
 * A JSON body read under the limit; a body that is not JSON is a 400 showing what to send. A body
 * said to be something else (text/plain, a form) is a 415 before it is read: those are the bodies
 * another site's page can send without asking first, so this is a second guard beside the
 * cross-site check. A body without a Content-Type is read as JSON.
 */
export async function readJsonBody(
  req: Request,
  maxBytes: number,
  whatToSend: Words,
  example: string,
): Promise<unknown> {
  const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type && type !== 'application/json' && !type.endsWith('+json')) {
    throw new ProblemError(
      {
        type: '/problems/unsupported-media-type',
        title: msg('problems.unsupportedMediaType.title'),
        status: 415,
        detail: msg('problems.unsupportedMediaType.detail', { type: type.slice(0, 60), example }),
      },
      { Accept: 'application/json' },
    );
  }
  const bytes = await readBodyWithLimit(req, maxBytes, whatToSend);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw badRequest({ body: msg('problems.bodyNotJson', { example }) });
  }
}
