import 'server-only';
/**
 * The message catalogues: one file per language and feature namespace (messages/<locale>/<ns>.json),
 * merged here into one catalogue per language. Only the server holds both; a page sends the browser
 * the catalogue of its own language only, without the namespaces only the server speaks
 * (clientMessages).
 *
 * To add a namespace: write messages/en/<ns>.json and messages/ja/<ns>.json with the same keys and
 * add both here (catalogue.test.ts fails on a file not listed, a key one language lacks, an ICU
 * message that does not parse, or placeholders that differ between the languages).
 *
 * Built with `next build`, the files come through next-intl's catalogue loader, which compiles each
 * ICU message ahead of time (next.config.mjs: `precompile`), so the browser needs no ICU parser.
 */
import enCdr from '../../messages/en/cdr.json';
import enCommon from '../../messages/en/common.json';
import enHistory from '../../messages/en/history.json';
import enInsights from '../../messages/en/insights.json';
import enPages from '../../messages/en/pages.json';
import enProblems from '../../messages/en/problems.json';
import enQuota from '../../messages/en/quota.json';
import enReconcile from '../../messages/en/reconcile.json';
import enShell from '../../messages/en/shell.json';
import enSignin from '../../messages/en/signin.json';
import enTeam from '../../messages/en/team.json';
import jaCdr from '../../messages/ja/cdr.json';
import jaCommon from '../../messages/ja/common.json';
import jaHistory from '../../messages/ja/history.json';
import jaInsights from '../../messages/ja/insights.json';
import jaPages from '../../messages/ja/pages.json';
import jaProblems from '../../messages/ja/problems.json';
import jaQuota from '../../messages/ja/quota.json';
import jaReconcile from '../../messages/ja/reconcile.json';
import jaShell from '../../messages/ja/shell.json';
import jaSignin from '../../messages/ja/signin.json';
import jaTeam from '../../messages/ja/team.json';
import enFields from '../../messages/en/fields.json';
import jaFields from '../../messages/ja/fields.json';
import enQuery from '../../messages/en/query.json';
import jaQuery from '../../messages/ja/query.json';
import enLookup from '../../messages/en/lookup.json';
import jaLookup from '../../messages/ja/lookup.json';
import enSearch from '../../messages/en/search.json';
import jaSearch from '../../messages/ja/search.json';
import enDetail from '../../messages/en/detail.json';
import jaDetail from '../../messages/ja/detail.json';
import enExports from '../../messages/en/exports.json';
import jaExports from '../../messages/ja/exports.json';
import enNetwork from '../../messages/en/network.json';
import jaNetwork from '../../messages/ja/network.json';
import enStore from '../../messages/en/store.json';
import jaStore from '../../messages/ja/store.json';
import type { Locale } from './locales';
import type { Messages } from './messages-type';

const CATALOGUES: Record<Locale, Messages> = {
  en: {
    cdr: enCdr,
    common: enCommon,
    history: enHistory,
    insights: enInsights,
    pages: enPages,
    problems: enProblems,
    quota: enQuota,
    reconcile: enReconcile,
    shell: enShell,
    signin: enSignin,
    team: enTeam,
    store: enStore,
    network: enNetwork,
    exports: enExports,
    detail: enDetail,
    search: enSearch,
    lookup: enLookup,
    query: enQuery,
    fields: enFields,
  },
  ja: {
    cdr: jaCdr,
    common: jaCommon,
    history: jaHistory,
    insights: jaInsights,
    pages: jaPages,
    problems: jaProblems,
    quota: jaQuota,
    reconcile: jaReconcile,
    shell: jaShell,
    signin: jaSignin,
    team: jaTeam,
    store: jaStore,
    network: jaNetwork,
    exports: jaExports,
    detail: jaDetail,
    search: jaSearch,
    lookup: jaLookup,
    query: jaQuery,
    fields: jaFields,
  },
};

/**
 * Namespaces only the server renders (problem details go out as text; page titles are metadata):
 * never sent to a browser.
 */
const SERVER_ONLY: readonly (keyof Messages)[] = ['pages', 'problems'];

export function messagesFor(locale: Locale): Messages {
  return CATALOGUES[locale];
}

/**
 * Namespaces only one or two pages speak: the root layout leaves them out, so every other page's
 * HTML does not carry them; the page that needs one adds it (app/(signed-in)/page-messages.tsx).
 */
export const PAGE_ONLY: readonly (keyof Messages)[] = ['history', 'insights'];

/**
 * What a page hands the browser (NextIntlClientProvider): its language, without the server's
 * namespaces, and of the pages' own namespaces only those named (`pageNamespaces`).
 */
export function clientMessages(locale: Locale, pageNamespaces: readonly (keyof Messages)[] = []): Partial<Messages> {
  const all = CATALOGUES[locale];
  return Object.fromEntries(
    Object.entries(all).filter(([name]) => {
      const ns = name as keyof Messages;
      return !SERVER_ONLY.includes(ns) && (!PAGE_ONLY.includes(ns) || pageNamespaces.includes(ns));
    }),
  );
}
