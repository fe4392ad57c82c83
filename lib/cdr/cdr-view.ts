/**
 * Facts about one CDR that are worth spelling out for a person: how long delivery took, what its
 * status and delivery-receipt error mean. Works on the table's CDRs and the detail endpoint's
 * records alike.
 */
import { explainDlrError } from './dlr-errors';
import { statusInfo } from './status';

export { fieldText, type RecordLike } from './record-text';

export { deliveryLatencyMs } from './latency';

/** "Delivered — final: this status will not change." */
export function statusSentence(value: string): string {
  const info = statusInfo(value);
  if (!info) return value === '' ? 'No status reported.' : `${value}: a status this dashboard does not know.`;
  const finality = info.final
    ? 'Final: this status will not change.'
    : 'In transit: a later delivery report may change it.';
  return `${info.meaning} ${finality}`;
}

/** "Unknown subscriber: the number does not exist. Permanent: resending will not help." */
export function dlrErrorSentence(code: string): string | null {
  if (code.trim() === '') return null;
  const known = explainDlrError(code);
  if (!known) return 'A gateway-specific code this dashboard cannot explain.';
  if (Number(code) === 0) return known.meaning;
  return `${known.meaning} ${known.permanent ? 'Permanent: resending will not help.' : 'Temporary: a resend later may succeed.'}`;
}
