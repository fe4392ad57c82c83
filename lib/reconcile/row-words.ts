import 'server-only';
/**
 * Words of a reconciliation's rows said in the reader's language, for the rows API and the answered
 * file: a row's problem (messages/<locale>/reconcile.json `problem.<code>`) and a DLR code's meaning
 * (cdr.json, as the drawer says it).
 */
import { explainDlrError } from '../cdr/dlr-errors';
import type { Locale } from '../i18n/locales';
import { msg } from '../i18n/message';
import type { MessageKey } from '../i18n/messages-type';
import { translate } from '../i18n/translate';
import type { RowProblem } from './api';
import type { RowWords } from './present';

export function rowWords(locale: Locale): RowWords {
  return {
    problem: (p: RowProblem) => translate(locale, msg(`reconcile.problem.${p.code}` as MessageKey, p.values)),
    dlr: dlrWords(locale),
  };
}

/** A DLR code's meaning, and whether a resend can help; "" for none. */
function dlrWords(locale: Locale): (code: string) => string {
  return (code) => {
    if (code.trim() === '') return '';
    const known = explainDlrError(code);
    if (!known) return translate(locale, msg('cdr.dlrUnknown'));
    const meaning = translate(locale, msg(`cdr.dlr.${Number(code)}` as MessageKey));
    if (Number(code) === 0) return meaning;
    return `${meaning} ${translate(locale, msg(known.permanent ? 'cdr.dlrPermanent' : 'cdr.dlrTemporary'))}`;
  };
}
