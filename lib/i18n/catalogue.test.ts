/**
 * The two catalogues say the same things: every key of one is in the other, every message parses
 * as ICU, and a message takes the same placeholders in both languages (a value the code passes is
 * never dropped in one language, nor a placeholder left unfilled). Every file under messages/ is
 * loaded (a namespace not listed in catalogue.ts would never reach a page).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { DLR_ERRORS } from '../cdr/dlr-errors';
import { DELIVERY_STATUSES } from '../cdr/status';
import { clientMessages, messagesFor } from './catalogue';
import { LOCALES, type Locale } from './locales';
import type { Messages } from './messages-type';

const MESSAGES_DIR = path.resolve(__dirname, '../../messages');

/** Every message as `namespace.path` → text. */
function flatten(node: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const at = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(at, value);
    else if (value && typeof value === 'object') for (const [k, v] of flatten(value, at)) out.set(k, v);
    else throw new Error(`${at} is neither a message nor a group of messages`);
  }
  return out;
}

/** The arguments a message takes (`{name}`, `{n, plural, …}`, `<link>…</link>`), nested ones included. */
function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time)
      into.add(el.value);
    if (el.type === TYPE.select || el.type === TYPE.plural) {
      into.add(el.value);
      for (const option of Object.values(el.options)) placeholders(option.value, into);
    }
    if (el.type === TYPE.tag) {
      into.add(`<${el.value}>`);
      placeholders(el.children, into);
    }
  }
  return into;
}

const flat = Object.fromEntries(LOCALES.map((l) => [l, flatten(messagesFor(l))])) as Record<
  Locale,
  Map<string, string>
>;

describe('the message catalogues', () => {
  it('load every namespace file of every language, and nothing else', () => {
    for (const locale of LOCALES) {
      const files = fs
        .readdirSync(path.join(MESSAGES_DIR, locale))
        .map((f) => f.replace(/\.json$/, ''))
        .sort();
      expect(Object.keys(messagesFor(locale)).sort(), `messages/${locale}/`).toEqual(files);
    }
    expect(fs.readdirSync(MESSAGES_DIR).sort()).toEqual([...LOCALES].sort());
  });

  it('hold the same keys in every language', () => {
    const [first, ...others] = LOCALES;
    for (const other of others) {
      const missingIn = (a: Locale, b: Locale) => [...flat[a].keys()].filter((k) => !flat[b].has(k));
      expect(missingIn(first, other), `keys of ${first} missing in ${other}`).toEqual([]);
      expect(missingIn(other, first), `keys of ${other} missing in ${first}`).toEqual([]);
    }
    expect(flat.en.size).toBeGreaterThan(100);
  });

  it('hold messages that parse as ICU, with the same placeholders in every language', () => {
    const unparsable: string[] = [];
    const differing: string[] = [];
    const empty: string[] = [];
    for (const [key, enText] of flat.en) {
      const args = new Map<Locale, string>();
      for (const locale of LOCALES) {
        const text = flat[locale].get(key) ?? '';
        if (text.trim() === '' && enText.trim() !== '') empty.push(`${locale}:${key}`);
        try {
          args.set(locale, [...placeholders(parse(text))].sort().join(', '));
        } catch (err) {
          unparsable.push(`${locale}:${key} (${(err as Error).message})`);
        }
      }
      if (new Set(args.values()).size > 1)
        differing.push(`${key}: ${[...args].map(([l, a]) => `${l} {${a}}`).join(' vs ')}`);
    }
    expect(unparsable).toEqual([]);
    expect(differing).toEqual([]);
    expect(empty).toEqual([]);
  });

  it('would catch a message that does not parse, or a placeholder only one language has', () => {
    expect(() => parse('Try again in {seconds s.')).toThrow();
    expect([...placeholders(parse('{n, plural, one {# call} other {# calls}} left {window}'))].sort()).toEqual([
      'n',
      'window',
    ]);
    expect([...placeholders(parse('Go to the <link>transactions</link>.'))]).toEqual(['<link>']);
  });

  it('name every delivery status and explain every DLR code the dashboard knows, in each language', () => {
    for (const locale of LOCALES) {
      const { cdr } = messagesFor(locale);
      expect(Object.keys(cdr.status).sort(), locale).toEqual(DELIVERY_STATUSES.map((s) => s.value).sort());
      expect(Object.keys(cdr.dlr).sort(), locale).toEqual(Object.keys(DLR_ERRORS).sort());
    }
    // The English words are the ones the dashboard has shown (lib/cdr), until lib/cdr reads them from here.
    for (const s of DELIVERY_STATUSES)
      expect(messagesFor('en').cdr.status[s.value]).toEqual({ label: s.label, meaning: s.meaning });
    for (const [code, e] of Object.entries(DLR_ERRORS))
      expect(messagesFor('en').cdr.dlr[code as keyof Messages['cdr']['dlr']]).toBe(e.meaning);
  });

  it('send a browser its own language only, without the server’s problem details', () => {
    for (const locale of LOCALES) {
      const sent = clientMessages(locale);
      expect(sent).not.toHaveProperty('problems');
      expect(sent.shell).toBe(messagesFor(locale).shell);
    }
    expect(JSON.stringify(clientMessages('ja'))).not.toContain('Sign out');
    // A page's own namespaces go to that page only.
    expect(clientMessages('en')).not.toHaveProperty('insights');
    expect(clientMessages('en')).not.toHaveProperty('history');
    expect(clientMessages('ja', ['insights', 'history'])).toMatchObject({
      insights: messagesFor('ja').insights,
      history: messagesFor('ja').history,
      shell: messagesFor('ja').shell,
    });
    expect(clientMessages('ja', ['insights'])).not.toHaveProperty('problems');
    expect(JSON.stringify(clientMessages('en'))).not.toContain('ログアウト');
  });
});
