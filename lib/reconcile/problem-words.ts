import 'server-only';
/**
 * A row's problem said in the reader's language, for the rows API and the answered file: its
 * words are the catalogue's (messages/<locale>/reconcile.json, `problem.<code>`).
 */
import en from '../../messages/en/reconcile.json';
import ja from '../../messages/ja/reconcile.json';
import type { RowProblem } from './api';
import type { ProblemWords } from './present';

const CATALOGUES = { en: en.problem, ja: ja.problem };

export function problemWords(locale: 'en' | 'ja'): ProblemWords {
  return (p: RowProblem) =>
    CATALOGUES[locale][p.code].replace(/\{(\w+)\}/g, (_, name: string) => String(p.values?.[name] ?? ''));
}
