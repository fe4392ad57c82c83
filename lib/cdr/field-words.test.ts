/**
 * Every field and every filter has its name (and a field its description, a filter its hint) in
 * both languages: a field added to lib/cdr/fields.ts without its words in messages/<locale>/fields.json
 * would show a key on the search page, the drawer and the column chooser.
 */
import { describe, expect, it } from 'vitest';
import { messagesFor } from '../i18n/catalogue';
import { LOCALES } from '../i18n/locales';
import { FILTERS } from '../query/filters';
import { CDR_FIELDS, FIELD_GROUPS } from './fields';

describe('the words of the fields and filters', () => {
  for (const locale of LOCALES) {
    const words = messagesFor(locale).fields as unknown as {
      field: Record<string, { label?: string; description?: string }>;
      group: Record<string, string>;
      filter: Record<string, { label?: string; hint?: string; placeholder?: string }>;
    };
    it(`are all in ${locale}`, () => {
      for (const f of CDR_FIELDS) {
        expect(words.field[f.key]?.label, f.key).toBeTruthy();
        expect(words.field[f.key]?.description, f.key).toBeTruthy();
      }
      for (const g of FIELD_GROUPS) expect(words.group[g.group], g.group).toBeTruthy();
      for (const f of FILTERS) {
        expect(words.filter[f.param]?.label, f.param).toBeTruthy();
        expect(words.filter[f.param]?.hint, f.param).toBeTruthy();
        // A filter that shows a placeholder shows it in the page's language.
        if (f.placeholder) expect(words.filter[f.param]?.placeholder, f.param).toBeTruthy();
      }
    });
  }

  it('name in Japanese as the glossary does', () => {
    const ja = messagesFor('ja').fields;
    expect(ja.field.to_address.label).toBe('宛先番号');
    expect(ja.field.from_address.label).toBe('送信元ID');
    expect(ja.field.date_received.label).toBe('受付日時');
    expect(ja.field.how_many_message_parts.label).toBe('分割数');
    expect(ja.field.dlr_error_code.label).toBe('エラーコード');
  });
});
