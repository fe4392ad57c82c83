import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
import { normaliseTrxId, trxIdProblem as problemOf } from './trx-id';

/** The problem as an English reader gets it. */
const trxIdProblem = (input: string) => {
  const problem = problemOf(input);
  return problem && translate('en', problem);
};

const ID = '956f5b9f1adb4b7b8186eef30a5a5738';

describe('a trx_id as people hand it over', () => {
  it('reads capitals, groups, the UUID form and links of this dashboard as the records write it', () => {
    for (const pasted of [
      ID,
      `  ${ID.toUpperCase()} `,
      '956f5b9f 1adb4b7b 8186eef3 0a5a5738',
      '956f5b9f-1adb-4b7b-8186-eef30a5a5738',
      `https://dash.example/transactions/${ID.toUpperCase()}?tz=JST`,
      `/transactions/${ID}`,
      `https://dash.example/transactions?date-from=2026-11-23+10%3A00%3A00&row=${ID}&tz=UTC`,
      // As a Japanese keyboard gives it: full-width, grouped with full-width or long-vowel dashes, ideographic spaces.
      '９５６ｆ５ｂ９ｆ－１ａｄｂ－４ｂ７ｂ－８１８６－ｅｅｆ３０ａ５ａ５７３８',
      '956f5b9fー1adbー4b7bー8186ーeef30a5a5738',
      '\u3000956F5B9F\u30001ADB4B7B8186EEF30A5A5738\u3000',
    ]) {
      expect(normaliseTrxId(pasted), pasted).toBe(ID);
      expect(trxIdProblem(pasted), pasted).toBeNull();
    }
  });

  it('says what is wrong otherwise', () => {
    expect(trxIdProblem('  ')).toBe('Enter a transaction ID.');
    expect(trxIdProblem(`${ID.slice(0, 31)}g`)).toMatch(/^A transaction ID has only the characters 0-9 and a-f/);
    expect(trxIdProblem(ID.slice(0, 30))).toBe('A transaction ID has 32 characters; this one has 30.');
    expect(trxIdProblem('https://dash.example/transactions/not-an-id')).toMatch(/only the characters/);
  });
  it('says the same in Japanese', () => {
    expect(translate('ja', problemOf(ID.slice(0, 30))!)).toBe(
      'トランザクションIDは32文字です。入力されたIDは30文字です。',
    );
  });
});
