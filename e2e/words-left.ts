/**
 * Finds interface words left in the other language on the page shown: for a Japanese reader, any
 * visible text or accessible name (aria-label, title, placeholder, alt) holding an English word;
 * for an English reader, any holding Japanese. Data is not interface: what the page shows of the
 * records and the account (names, codes, message bodies, numbers) may be in either language, so it
 * is left out — inside `translate="no"` (HTML's own mark for words not to translate), code and
 * monospace values, a quoted message, the results table's body, a record's field values, a chart's axis values, and
 * anything marked as another language (`lang`, as the language switch names each language in
 * itself). A word is English when it holds a lower-case Latin letter and no digit or underscore:
 * codes (DELIVRD, UTC, JST, API, CSV) are upper case, identifiers and file names (a trx_id's hex,
 * `sms_2026-12-02T0000_….csv`) hold digits, and a few names are allowed by name.
 */
import type { Page } from '@playwright/test';
import type { Locale } from '../lib/i18n/locales';

/** Where data is shown: not interface words (see above). */
export const DATA_SELECTOR = [
  'script',
  'style',
  'noscript',
  'template',
  '[translate="no"]',
  'code',
  'kbd',
  'samp',
  '.mono',
  'blockquote',
  '[data-testid="results-table"] tbody',
  '[data-field] dd',
  '.recharts-cartesian-axis-tick-label',
  '.recharts-cartesian-axis-tick-value',
  // Recharts measures its labels' width in an off-screen copy of them.
  '#recharts_measurement_span',
].join(',');

/**
 * Names a Japanese interface writes in Latin letters: the upstream's product, formats, the browser's
 * own terms, a key's name (Esc), a unit (kB), the values of the upstream's `source` field that a
 * field's description lists (Dashboard, Campaign), and the simulator's sender ID a placeholder
 * gives as an example of what to type (SakuraMart).
 */
export const NAMES_IN_LATIN = [
  'Report',
  'Excel',
  'Cookie',
  'Chromium',
  'Google',
  'Microsoft',
  'Esc',
  'kB',
  'Dashboard',
  'Campaign',
  'SakuraMart',
];

export interface Leftover {
  /** Where: the nearest element's tag, test id or id. */
  at: string;
  text: string;
}

export async function wordsLeft(page: Page, locale: Locale): Promise<Leftover[]> {
  return page.evaluate(
    ({ locale, dataSelector, names }) => {
      const allowed = new Set(names);
      // A run of letters, digits and the marks identifiers and file names are written with.
      const token = /[A-Za-z0-9_./-]+/g;
      const englishWord = (t: string): boolean => {
        const letters = t.replace(/[^A-Za-z]/g, '');
        return /[a-z]/.test(t) && !/[\d_]/.test(t) && letters.length >= 2 && !allowed.has(letters);
      };
      const japanese = /[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]/;
      const foreign = (text: string): boolean =>
        locale === 'ja' ? (text.match(token) ?? []).some(englishWord) : japanese.test(text);
      const isData = (el: Element): boolean => {
        if (el.closest(dataSelector)) return true;
        const marked = el.closest('[lang]');
        return marked !== null && marked !== document.documentElement && marked.getAttribute('lang') !== locale;
      };
      const where = (el: Element): string =>
        el.closest('[data-testid]')?.getAttribute('data-testid') ?? (el.id || el.tagName.toLowerCase());
      const out: { at: string; text: string }[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = (node.textContent ?? '').trim();
        const el = node.parentElement;
        if (!text || !el || isData(el)) continue;
        // Text a person can see, or a screen reader reads (visually hidden text is drawn 1px wide).
        const shown = el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
        if (shown && foreign(text)) out.push({ at: where(el), text });
      }
      for (const el of document.body.querySelectorAll('[aria-label],[title],[placeholder],[alt]')) {
        if (isData(el)) continue;
        // A name inside what screen readers are told to skip is read by no one (a chart drawn
        // beside its table: Recharts names its legend icons in English); a tooltip (title) still shows.
        const unread = el.closest('[aria-hidden="true"]') !== null;
        // A placeholder is an example of what to type, which may be data in either language
        // (`e.g. 配達`): checked for English words left in a Japanese page, not for Japanese in an English one.
        const attrs = ['title', ...(unread ? [] : ['aria-label', 'alt']), ...(locale === 'ja' ? ['placeholder'] : [])];
        for (const attr of attrs) {
          const text = el.getAttribute(attr)?.trim();
          if (text && foreign(text)) out.push({ at: `${where(el)}[${attr}]`, text });
        }
      }
      if (foreign(document.title)) out.push({ at: 'title', text: document.title });
      return out;
    },
    { locale, dataSelector: DATA_SELECTOR, names: NAMES_IN_LATIN },
  );
}
