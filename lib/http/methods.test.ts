import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowHeader, headRefused, otherMethodsRefused, REFUSES, ROUTE_METHODS } from './methods';

describe('methods an endpoint does not take', () => {
  it('says in Allow what the endpoint takes: OPTIONS always, HEAD with GET unless refused', () => {
    expect(allowHeader(['GET'])).toBe('GET, HEAD, OPTIONS');
    expect(allowHeader(['GET'], { headRefused: true })).toBe('GET, OPTIONS');
    expect(allowHeader(['POST'])).toBe('OPTIONS, POST');
    expect(allowHeader(['GET', 'PUT', 'DELETE'])).toBe('DELETE, GET, HEAD, OPTIONS, PUT');
    expect(headRefused().headers).toEqual({ Allow: 'GET, OPTIONS' });
  });

  it('answers 405 with Allow and a problem naming what the endpoint takes', async () => {
    const { PATCH } = otherMethodsRefused(['GET', 'POST']);
    const res = PATCH(new Request('http://dashboard.test/api/exports', { method: 'PATCH', body: 'ignored' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET, HEAD, OPTIONS, POST');
    expect(res.headers.get('Content-Type')).toBe('application/problem+json');
    const problem = await res.json();
    expect(problem).toMatchObject({
      type: '/problems/method-not-allowed',
      title: 'PATCH is not answered here',
      status: 405,
    });
    expect(problem.detail).toMatch(
      /^This endpoint takes GET, HEAD, POST; see the README's HTTP API\. Nothing was done and no upstream call was made\.$/,
    );
  });
});

/** Every route file under app/api. */
function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === 'route.ts' ? [full] : [];
  });
}

describe('every API route', () => {
  const root = path.resolve(__dirname, '../../app/api');
  const files = routeFiles(root);

  it('finds the routes', () => expect(files.length).toBeGreaterThanOrEqual(11));

  for (const file of files) {
    const name = `/api/${path.relative(root, path.dirname(file))}`;
    it(`${name} answers every method: its own, or 405 with an Allow that names exactly its own`, async () => {
      const route = (await import(file)) as Record<string, unknown>;
      const exported = ROUTE_METHODS.filter((m) => typeof route[m] === 'function');
      // Next.js answers HEAD with GET when the route has no HEAD of its own.
      const answered = ROUTE_METHODS.filter((m) => exported.includes(m) || (m === 'HEAD' && exported.includes('GET')));
      expect(answered, 'a method left to Next.js answers 405 without Allow').toEqual([...ROUTE_METHODS]);
      const refusal = exported.map((m) => route[m] as { [REFUSES]?: true }).find((h) => h[REFUSES]);
      const own = exported.filter((m) => !(route[m] as { [REFUSES]?: true })[REFUSES]);
      if (!refusal) return; // takes every method (none does today)
      // A route defines HEAD itself only to refuse it (its GET could spend a call).
      const takes = own.filter((m) => m !== 'HEAD');
      const res = (refusal as unknown as (req: Request) => Response)(
        new Request(`http://dashboard.test${name}`, { method: 'PATCH' }),
      );
      expect(res.headers.get('Allow')).toBe(allowHeader(takes, { headRefused: own.includes('HEAD') }));
      // OPTIONS says the same (left to Next.js, it named every exported handler, refusals too).
      const options = (route.OPTIONS as (req: Request) => Response)(
        new Request(`http://dashboard.test${name}`, { method: 'OPTIONS' }),
      );
      expect(options.status).toBe(204);
      expect(options.headers.get('Allow')).toBe(res.headers.get('Allow'));
    });
  }
});
