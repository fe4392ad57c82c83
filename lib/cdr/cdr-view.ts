/**
 * Facts about one CDR that are worth spelling out for a person: how long delivery took (what its
 * status and delivery-receipt error mean is said in the page's language by
 * components/cdr/use-cdr-sentences.ts). Works on the table's CDRs and the detail endpoint's records alike.
 */

export { fieldText, type RecordLike } from './record-text';

export { deliveryLatencyMs } from './latency';
