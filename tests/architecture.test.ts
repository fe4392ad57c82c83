/**
 * The shape of the code, checked: no import cycle between files, folders or features; the kernel
 * (records' fields, time, query, http, db, csv, i18n) below every feature; features reaching each other
 * only through their entry files (index.ts, safe anywhere; client.ts, the browser's React Query options and
 * URL parsers; server.ts, server-only); and the
 * boundaries the lint rules state (eslint.config.mjs) for every file, type imports included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const SOURCE_DIRS = ['app', 'components', 'lib'];
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = path.join(path.dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile())
      return path.normalize(candidate);
  }
  return null;
}

const files = SOURCE_DIRS.flatMap(sourceFiles);

/** The shared kernel: folders (and files) of lib/ every feature may use, which use no feature. */
const KERNEL = ['cdr', 'csv', 'db', 'errors', 'http', 'i18n', 'query', 'time', 'config.ts', 'log.ts'];
/** The features: lib/<feature>/, reached from elsewhere only through its entry files. */
const FEATURES = fs
  .readdirSync(path.join(ROOT, 'lib'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && !KERNEL.includes(e.name) && e.name !== 'root')
  .map((e) => e.name);
const featureOf = (file: string): string | null => {
  const m = /^lib\/([^/]+)\//.exec(file);
  return m && FEATURES.includes(m[1]!) ? m[1]! : null;
};
const isKernel = (file: string) => KERNEL.some((k) => file === `lib/${k}` || file.startsWith(`lib/${k}/`));
const isEntry = (file: string) => /^lib\/[^/]+\/(index|client|server)\.ts$/.test(file);
const usesReact = (file: string) =>
  /from '(react|@tanstack\/react-query|nuqs)'/.test(fs.readFileSync(path.join(ROOT, file), 'utf8'));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const serverOnly = (file: string) => /^import 'server-only';/m.test(fs.readFileSync(path.join(ROOT, file), 'utf8'));
const edges = new Map<string, string[]>(
  files.map((file) => {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((m) => resolve(file, (m[1] ?? m[2]) as string))
      .filter((t): t is string => t !== null);
    return [file, targets];
  }),
);

/** A cycle of the graph, as a path that comes back to its start, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return null;
}

describe('the import graph', () => {
  it('reads the sources', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.get('lib/query/wire.ts')).toContain('lib/query/filters.ts');
    expect(FEATURES.length).toBeGreaterThan(6);
  });

  it('has no cycle between files', () => {
    const graph = new Map([...edges].map(([f, ts]) => [f, new Set(ts)]));
    expect(findCycle(graph)).toBeNull();
  });

  it('has no cycle between folders', () => {
    const graph = new Map<string, Set<string>>();
    for (const [file, targets] of edges) {
      const from = path.dirname(file);
      const set = graph.get(from) ?? new Set<string>();
      for (const t of targets) if (path.dirname(t) !== from) set.add(path.dirname(t));
      graph.set(from, set);
    }
    expect(findCycle(graph)).toBeNull();
  });

  it('has no cycle between features', () => {
    const graph = new Map<string, Set<string>>(FEATURES.map((f) => [f, new Set()]));
    for (const [file, targets] of edges) {
      const from = featureOf(file);
      if (!from) continue;
      for (const t of targets) {
        const to = featureOf(t);
        if (to && to !== from) graph.get(from)!.add(to);
      }
    }
    expect(findCycle(graph)).toBeNull();
  });

  it('lists the features a newcomer looks for, each with an entry file', () => {
    expect(FEATURES).toEqual(
      expect.arrayContaining(['auth', 'exports', 'governor', 'history', 'insights', 'lookup', 'search', 'upstream']),
    );
    expect(
      FEATURES.filter(
        (f) =>
          !fs.existsSync(path.join(ROOT, 'lib', f, 'index.ts')) &&
          !fs.existsSync(path.join(ROOT, 'lib', f, 'server.ts')),
      ),
    ).toEqual([]);
  });

  it('decides local or upstream in one module: only the planner cuts a range or names what only the local history answers', () => {
    const PLANNER = 'lib/search/planner.ts';
    // Types of the plan may be read anywhere; the cut itself, and the local-only rule, only here.
    const cutters = [...edges]
      .filter(([f, ts]) => f !== PLANNER && ts.includes('lib/search/range-pieces.ts'))
      .filter(([f]) => /^\s*import\s+(?!type\b)[^;]*from\s*'\.\/range-pieces'/m.test(read(f)))
      .map(([f]) => f);
    expect(cutters).toEqual([]);
    const deciders = files.filter(
      (f) => f !== PLANNER && f !== 'lib/query/filters.ts' && /\blocalFiltersIn\b/.test(read(f)),
    );
    expect(deciders).toEqual([]);
  });

  it('keeps the kernel below the features: it uses none of them, nor the composition root', () => {
    const offenders = [...edges]
      .filter(([f]) => isKernel(f))
      .flatMap(([f, ts]) =>
        ts.filter((t) => featureOf(t) !== null || t.startsWith('lib/root/')).map((t) => `${f} → ${t}`),
      );
    expect(offenders).toEqual([]);
  });

  it('lets features, pages and components reach a feature only through its entry files', () => {
    const offenders = [...edges].flatMap(([f, ts]) =>
      ts.filter((t) => featureOf(t) !== null && featureOf(t) !== featureOf(f) && !isEntry(t)).map((t) => `${f} → ${t}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps what a browser entry (index.ts) offers free of server-only modules, and server.ts marked server-only', () => {
    const entries = FEATURES.map((f) => `lib/${f}/index.ts`).filter((e) => edges.has(e));
    const offenders = entries.flatMap((e) => (edges.get(e) ?? []).filter(serverOnly).map((t) => `${e} → ${t}`));
    expect(offenders).toEqual([]);
    const servers = FEATURES.map((f) => `lib/${f}/server.ts`).filter((e) => edges.has(e));
    expect(servers.filter((e) => !serverOnly(e))).toEqual([]);
  });

  it('keeps React out of what server code may import: an index.ts offers no module that uses React, and no server module imports a client.ts', () => {
    const entries = FEATURES.map((f) => `lib/${f}/index.ts`).filter((e) => edges.has(e));
    expect(entries.flatMap((e) => (edges.get(e) ?? []).filter(usesReact).map((t) => `${e} → ${t}`))).toEqual([]);
    const offenders = [...edges]
      .filter(([f]) => f.startsWith('lib/') && serverOnly(f))
      .flatMap(([f, ts]) => ts.filter((t) => /^lib\/[^/]+\/client\.ts$/.test(t)).map((t) => `${f} → ${t}`));
    expect(offenders).toEqual([]);
  });

  it('keeps Node\u2019s own modules (crypto, fs, …) out of everything a browser entry or a component reaches', () => {
    // A bundler polyfills them for the browser (crypto-browserify: 480 kB, and an eval the CSP refuses).
    const NODE =
      /^\s*import\s+(?!type\b)[^;]*?from\s*['"](node:[^'"]+|crypto|fs|path|os|http|https|zlib|stream|worker_threads)['"]/m;
    const roots = [...edges.keys()].filter(
      (f) => f.startsWith('components/') || /^lib\/[^/]+\/(index|client)\.ts$/.test(f),
    );
    const seen = new Set<string>();
    const stack = [...roots];
    while (stack.length > 0) {
      const f = stack.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      if (!serverOnly(f)) stack.push(...(edges.get(f) ?? []));
    }
    expect([...seen].filter((f) => !serverOnly(f) && NODE.test(fs.readFileSync(path.join(ROOT, f), 'utf8')))).toEqual(
      [],
    );
  });

  it('keeps server-only modules, the store and the upstream client out of components', () => {
    const offenders = [...edges]
      .filter(([f]) => f.startsWith('components/'))
      .flatMap(([f, ts]) =>
        ts.filter((t) => serverOnly(t) || /^lib\/[^/]+\/server\.ts$/.test(t)).map((t) => `${f} → ${t}`),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps the composition root out of components and lib (only app/ and the startup hook use it)', () => {
    const offenders = [...edges]
      .filter(([f]) => /^(components|lib\/(?!root\/))/.test(f))
      .flatMap(([f, ts]) => ts.filter((t) => t.startsWith('lib/root/')).map((t) => `${f} → ${t}`));
    expect(offenders).toEqual([]);
  });

  it('never reaches the simulator from the app’s code', () => {
    const offenders = files.filter((f) =>
      /(^|\/)simulator\//.test(
        fs.readFileSync(path.join(ROOT, f), 'utf8').match(/from\s*['"][^'"]*simulator[^'"]*['"]/)?.[0] ?? '',
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('refuses requests from other sites on every API handler that may spend an upstream call or change what is kept', () => {
    // Handlers that only read what is already here (no call, nothing changed) may be asked from
    // anywhere a session cookie goes; every other signed-in handler refuses another site's request,
    // or a link on it could spend a signed-in person's quota (lib/root/with-account.ts).
    const READS_ONLY = new Set([
      'app/api/quota/route.ts GET',
      'app/api/plan/route.ts GET',
      'app/api/insights/route.ts GET',
      'app/api/exports/route.ts GET',
      'app/api/exports/[id]/route.ts GET',
      'app/api/exports/[id]/file/route.ts GET',
      'app/api/history/route.ts GET',
      'app/api/audit/route.ts GET',
      'app/api/team/accounts/route.ts GET',
      'app/api/team/people/route.ts GET',
      'app/api/team/session/route.ts GET',
      'app/api/reconciliations/route.ts GET',
      'app/api/reconciliations/[id]/route.ts GET',
      'app/api/reconciliations/[id]/rows/route.ts GET',
      'app/api/reconciliations/[id]/file/route.ts GET',
    ]);
    const routes = files.filter((f) => /^app\/api\/.*route\.ts$/.test(f) && !f.startsWith('app/api/auth/'));
    const handlers = routes.flatMap((file) => {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      // Each `export const METHOD = withAccount(…)` up to the next export.
      return [...text.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = withAccount[\s\S]*?(?=\nexport |$)/g)].map(
        (m) => ({ name: `${file} ${m[1]}`, refuses: /refuseCrossSite:\s*true/.test(m[0]) }),
      );
    });
    expect(handlers.length).toBeGreaterThan(10);
    expect(handlers.filter((h) => !h.refuses && !READS_ONLY.has(h.name)).map((h) => h.name)).toEqual([]);
    expect(handlers.filter((h) => h.refuses).map((h) => h.name)).toEqual(
      expect.arrayContaining([
        'app/api/transactions/route.ts GET',
        'app/api/transactions/[trxId]/route.ts GET',
        'app/api/exports/route.ts POST',
        'app/api/history/route.ts PUT',
        'app/api/transactions/[trxId]/reveal/route.ts POST',
        'app/api/team/people/[id]/route.ts PUT',
        'app/api/team/accounts/[id]/route.ts PUT',
        'app/api/audit/page-csv/route.ts POST',
      ]),
    );
  });

  it('leaves every form of the query to its codec (lib/query): nothing else reads or writes URL parameters of one', () => {
    // URL parameters read or written elsewhere, each of something that is not a query.
    const NOT_A_QUERY = new Set([
      'lib/http/paths.ts', // the sign-in page's callbackUrl and error
      'lib/root/throttled-sign-in.ts', // the sign-in form's body
      'lib/log.ts', // a URL written to the log, redacted
      'components/lookup/trx-lookup.tsx', // the page's `tz`, read by the codec's zoneOf
      'lib/auth/oidc.ts', // the identity provider's token request (a form body)
      'lib/team/audit-request.ts', // the audit log's filters (from, to, actor, action, number)
      'lib/team/audit-query.ts', // a query the codec read, written as the audit log's text, numbers masked
      'components/team/audit-view.tsx', // the audit page's filters, read by lib/team/audit-request.ts
      'lib/reconcile/rows-query.ts', // a reconciliation's rows view (outcome, status, page): read and written there
    ]);
    const BY_HAND = /new URLSearchParams\(|searchParams\.(get|getAll|set|append|delete)\(/;
    const offenders = files.filter(
      (f) =>
        !f.startsWith('lib/query/') && !NOT_A_QUERY.has(f) && BY_HAND.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('gives services only parsed input: routes name a reader (withAccount `query`), no service parses a query or throws a 400', () => {
    const services = files.filter((f) => /^lib\/[^/]+\/[^/]*-service\.ts$/.test(f));
    expect(services.length).toBeGreaterThan(3);
    const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');
    expect(services.filter((f) => /\b(parseQuery|badRequest)\b/.test(read(f)))).toEqual([]);
    const routes = files.filter((f) => /^app\/api\/.*route\.ts$/.test(f));
    expect(routes.filter((f) => /\b(parseQuery|badRequest|searchParams)\b/.test(read(f)))).toEqual([]);
  });

  it('names every file in one convention: kebab-case', () => {
    const wrong = files.filter(
      (f) => !/^[a-z0-9.[\]()-]+$/.test(path.basename(f).replace(/\.(ts|tsx)$/, '')) && !/^\[/.test(path.basename(f)),
    );
    expect(wrong).toEqual([]);
  });
});
