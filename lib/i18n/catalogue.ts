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
import enProblems from '../../messages/en/problems.json';
import enQuota from '../../messages/en/quota.json';
import enReconcile from '../../messages/en/reconcile.json';
import enShell from '../../messages/en/shell.json';
import enSignin from '../../messages/en/signin.json';
import jaCdr from '../../messages/ja/cdr.json';
import jaCommon from '../../messages/ja/common.json';
import jaHistory from '../../messages/ja/history.json';
import jaProblems from '../../messages/ja/problems.json';
import jaQuota from '../../messages/ja/quota.json';
import jaReconcile from '../../messages/ja/reconcile.json';
import jaShell from '../../messages/ja/shell.json';
import jaSignin from '../../messages/ja/signin.json';
import type { Locale } from './locales';
import type { Messages } from './messages-type';

const CATALOGUES: Record<Locale, Messages> = {
  en: {
    cdr: enCdr,
    common: enCommon,
    history: enHistory,
    problems: enProblems,
    quota: enQuota,
    reconcile: enReconcile,
    shell: enShell,
    signin: enSignin,
  },
  ja: {
    cdr: jaCdr,
    common: jaCommon,
    history: jaHistory,
    problems: jaProblems,
    quota: jaQuota,
    reconcile: jaReconcile,
    shell: jaShell,
    signin: jaSignin,
  },
};

/** Namespaces only the server renders (problem details go out as text): never sent to a browser. */
const SERVER_ONLY: readonly (keyof Messages)[] = ['problems'];

export function messagesFor(locale: Locale): Messages {
  return CATALOGUES[locale];
}

/** What a page hands the browser (NextIntlClientProvider): its language, without the server's namespaces. */
export function clientMessages(locale: Locale): Partial<Messages> {
  const all = CATALOGUES[locale];
  return Object.fromEntries(Object.entries(all).filter(([ns]) => !SERVER_ONLY.includes(ns as keyof Messages)));
}
