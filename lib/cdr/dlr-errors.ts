/**
 * Delivery-receipt error codes. They are gateway-specific; most follow GSM MAP causes
 * (shared/upstream/notes.md). `permanent` says whether a resend can help.
 */
export const DLR_ERRORS: Readonly<Record<string, { meaning: string; permanent: boolean }>> = {
  '0': { meaning: 'No error.', permanent: false },
  '1': { meaning: 'Unknown subscriber: the number does not exist.', permanent: true },
  '5': { meaning: 'Unidentified subscriber.', permanent: true },
  '9': { meaning: 'Illegal subscriber.', permanent: true },
  '11': { meaning: 'Teleservice not provisioned: the line cannot receive SMS.', permanent: true },
  '13': { meaning: 'Call barred.', permanent: true },
  '21': { meaning: 'SMS not supported by the handset or network.', permanent: true },
  '27': { meaning: 'Absent subscriber: the handset is off or out of coverage.', permanent: false },
  '31': { meaning: 'Subscriber busy.', permanent: false },
  '34': { meaning: 'System failure in the network.', permanent: false },
  '36': { meaning: 'Unexpected data value.', permanent: true },
  '40': { meaning: 'Memory capacity exceeded: the handset or SIM is full.', permanent: false },
  '49': { meaning: 'SIM full.', permanent: false },
  '60': { meaning: 'Absent subscriber (no paging response).', permanent: false },
  '61': { meaning: 'Absent subscriber (IMSI detached).', permanent: false },
};

export function explainDlrError(code: string): { meaning: string; permanent: boolean } | undefined {
  if (code === '') return undefined;
  return DLR_ERRORS[String(Number(code))] ?? DLR_ERRORS[code];
}
