import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { readBodyWithLimit, readJsonBody, withBodyLimit } from './body-limit';
import { ProblemError } from './problem';

const LIMIT = 1024;
const HINT = 'Send less.';

/** A body of `chunks` chunks of `size` bytes (endless when `chunks` is Infinity), counting pulls. */
function streamingBody(size: number, chunks: number) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= chunks) return controller.close();
      counter.pulled += 1;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return { stream, counter };
}

function post(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/api/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<ProblemError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProblemError);
  return err as ProblemError;
}

describe('readBodyWithLimit', () => {
  it('returns a body within the limit, up to the last byte', async () => {
    const body = await readBodyWithLimit(post('a'.repeat(LIMIT)), LIMIT, HINT);
    expect(body.byteLength).toBe(LIMIT);
    expect(new TextDecoder().decode(body)).toBe('a'.repeat(LIMIT));
  });

  it('refuses a Content-Length over the limit before reading a byte', async () => {
    const { stream, counter } = streamingBody(100, Infinity);
    const err = await refusal(readBodyWithLimit(post(stream, { 'content-length': String(LIMIT + 1) }), LIMIT, HINT));
    expect(err.problem).toMatchObject({ status: 413, type: '/problems/payload-too-large', maxBodyBytes: LIMIT });
    expect(err.problem.detail).toContain(`at most ${LIMIT} bytes`);
    expect(err.problem.detail).toContain(HINT);
    // The stream may have been asked to fill its queue once, but not read.
    expect(counter.pulled).toBeLessThanOrEqual(1);
  });

  it('stops an endless body without a length as soon as it passes the limit', async () => {
    const { stream, counter } = streamingBody(100, Infinity);
    const err = await refusal(readBodyWithLimit(post(stream), LIMIT, HINT));
    expect(err.problem.status).toBe(413);
    // 11 chunks of 100 bytes pass 1024; a chunk or two more may be queued, never the rest.
    expect(counter.pulled).toBeLessThanOrEqual(13);
    // The connection is closed rather than kept for a body nobody will read.
    expect(err.headers).toEqual({ Connection: 'close' });
  });

  it('counts the bytes actually sent, whatever Content-Length claims', async () => {
    const { stream } = streamingBody(600, 2);
    const err = await refusal(readBodyWithLimit(post(stream, { 'content-length': '10' }), LIMIT, HINT));
    expect(err.problem.status).toBe(413);
  });

  it('reads an empty body as empty', async () => {
    expect(
      (await readBodyWithLimit(new Request('http://localhost/api/x', { method: 'POST' }), LIMIT, HINT)).byteLength,
    ).toBe(0);
  });
});

describe('withBodyLimit', () => {
  it('hands on the same request with the body already read', async () => {
    const form = new URLSearchParams({ csrfToken: 't', apiKey: 'demo' }).toString();
    const original = new NextRequest('http://localhost/api/auth/callback/credentials?x=1', {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'a=b' },
    });
    const request = await withBodyLimit(original, LIMIT, HINT);
    expect(request.nextUrl.searchParams.get('x')).toBe('1');
    expect(request.method).toBe('POST');
    expect(request.headers.get('cookie')).toBe('a=b');
    expect(Object.fromEntries(new URLSearchParams(await request.text()))).toEqual({ csrfToken: 't', apiKey: 'demo' });
  });

  it('passes a GET through untouched', async () => {
    const original = new NextRequest('http://localhost/api/auth/csrf');
    expect(await withBodyLimit(original, LIMIT, HINT)).toBe(original);
  });

  it('refuses a body over the limit', async () => {
    const original = new NextRequest('http://localhost/api/auth/callback/credentials', {
      method: 'POST',
      body: 'a'.repeat(LIMIT + 1),
    });
    expect((await refusal(withBodyLimit(original, LIMIT, HINT))).problem.status).toBe(413);
  });
});

describe('a JSON body', () => {
  it('is read with its Content-Type, or without one', async () => {
    expect(
      await readJsonBody(post('{"a":1}', { 'Content-Type': 'application/json; charset=utf-8' }), LIMIT, HINT, '{}'),
    ).toEqual({ a: 1 });
    // (A string body would be given text/plain by Request itself.)
    expect(
      await readJsonBody(post(new TextEncoder().encode('{"a":1}') as unknown as string), LIMIT, HINT, '{}'),
    ).toEqual({ a: 1 });
  });

  it('said to be text or a form is a 415, unread: bodies another site can send without asking', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const req = post('{"a":1}', { 'Content-Type': type });
      const err = await refusal(readJsonBody(req, LIMIT, HINT, '{}'));
      expect(err.problem.status, type).toBe(415);
      expect(err.problem.detail).toContain('Content-Type: application/json');
      expect(req.bodyUsed, type).toBe(false);
    }
  });
});
