/**
 * Delivery status values (SMPP 3.4 message states, shared/upstream/notes.md) with a plain-language
 * meaning for people and whether the state is final. Shared by the table's badges, the status
 * filter, the server's validation and the simulator.
 */
export const DELIVERY_STATUSES = [
  { value: 'DELIVRD', label: 'Delivered', final: true, tone: 'success', meaning: 'Delivered to the handset.' },
  {
    value: 'ENROUTE',
    label: 'En route',
    final: false,
    tone: 'pending',
    meaning: 'In transit; a delivery report may still arrive.',
  },
  {
    value: 'ACCEPTD',
    label: 'Accepted',
    final: false,
    tone: 'pending',
    meaning: 'Accepted by the carrier; not yet confirmed delivered.',
  },
  {
    value: 'UNKNOWN',
    label: 'Unknown',
    final: false,
    tone: 'pending',
    meaning: 'State unknown, often buffered while the handset is off.',
  },
  {
    value: 'EXPIRED',
    label: 'Expired',
    final: true,
    tone: 'failure',
    meaning: 'The validity period ran out before delivery.',
  },
  { value: 'DELETED', label: 'Deleted', final: true, tone: 'failure', meaning: 'Deleted before delivery.' },
  {
    value: 'UNDELIV',
    label: 'Undeliverable',
    final: true,
    tone: 'failure',
    meaning: 'Could not be delivered (e.g. the number does not exist).',
  },
  {
    value: 'REJECTD',
    label: 'Rejected',
    final: true,
    tone: 'failure',
    meaning: 'Rejected by the platform or the carrier.',
  },
  { value: 'SKIPPED', label: 'Skipped', final: true, tone: 'neutral', meaning: 'Accepted but not sent.' },
] as const;

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]['value'];
export type StatusInfo = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_STATUS_VALUES = DELIVERY_STATUSES.map((s) => s.value) as [DeliveryStatus, ...DeliveryStatus[]];

export function statusInfo(value: string): StatusInfo | undefined {
  return DELIVERY_STATUSES.find((s) => s.value === value);
}
