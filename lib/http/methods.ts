import 'server-only';
/**
 * The methods an endpoint does not take. Next.js answers them 405 with an empty body and no
 * `Allow`, which RFC 9110 (§15.5.6) requires; a script writer is left guessing. Each route names
 * the methods it takes, beside its handlers, and exports these for the rest:
 *
 *   export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
 *
 * Nothing is read, no session is looked at and nothing upstream is spent: the answer is the same
 * for everyone and says only what the endpoint takes.
 */
import { msg } from '../i18n/message';
import { localeOfRequest } from '../i18n/request-locale';
import { ProblemError, problemResponse } from './problem';

/** Marks the handlers made here (the routes' test tells them from the routes' own). */
export const REFUSES = Symbol('refuses the method');

export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * What `Allow` says for an endpoint that takes `methods`: OPTIONS always (Next.js answers it), and
 * HEAD with GET unless the route refuses HEAD itself (one that could spend a call: headRefused).
 */
export function allowHeader(methods: readonly RouteMethod[], opts: { headRefused?: boolean } = {}): string {
  const allowed = new Set<string>([...methods, 'OPTIONS']);
  if (allowed.has('GET') && !opts.headRefused) allowed.add('HEAD');
  return [...allowed].sort().join(', ');
}

const METHOD_NOT_ALLOWED = '/problems/method-not-allowed';

/** The 405 of a method the endpoint does not take (`allow`: what Allow says). */
export function methodNotAllowed(method: string, allow: string): ProblemError {
  return new ProblemError(
    {
      type: METHOD_NOT_ALLOWED,
      title: msg('problems.methodNotAllowed.title', { method }),
      status: 405,
      detail: msg('problems.methodNotAllowed.detail', {
        methods: allow
          .split(', ')
          .filter((m) => m !== 'OPTIONS')
          .join(', '),
      }),
    },
    { Allow: allow },
  );
}

/**
 * A 405 handler for every method of ROUTE_METHODS but `methods` (the route destructures those it
 * lacks), and the route's OPTIONS: Next.js's own answers OPTIONS with every method the route
 * exports, these refusals included, so a client asking what the endpoint takes was told everything.
 */
export function otherMethodsRefused(
  methods: readonly RouteMethod[],
  opts: { headRefused?: boolean } = {},
): Record<RouteMethod | 'OPTIONS', (req: Request) => Response> {
  const allow = allowHeader(methods, opts);
  const refuse: (req: Request) => Response = Object.assign(
    (req: Request) => {
      const { spec, headers } = methodNotAllowed(req.method, allow);
      return problemResponse(spec, localeOfRequest(req), headers);
    },
    { [REFUSES]: true },
  );
  const options = () => new Response(null, { status: 204, headers: { Allow: allow } });
  return {
    ...(Object.fromEntries(ROUTE_METHODS.map((m) => [m, refuse])) as Record<RouteMethod, (req: Request) => Response>),
    OPTIONS: options,
  };
}

/**
 * HEAD of an endpoint whose GET can spend an upstream call: the call would be spent for an answer
 * nobody reads (a link checker, a script probing the URL). Next.js answers HEAD with GET otherwise.
 */
export function headRefused(): ProblemError {
  return new ProblemError(
    {
      type: METHOD_NOT_ALLOWED,
      title: msg('problems.methodNotAllowed.title', { method: 'HEAD' }),
      status: 405,
      detail: msg('problems.methodNotAllowed.headDetail'),
    },
    { Allow: allowHeader(['GET'], { headRefused: true }) },
  );
}
