/**
 * Japan's four mobile network operators with their MCC+MNC codes, offered by the network filter and
 * used by the simulator. Other codes are still accepted by the filter (validated by shape only).
 */
export const KNOWN_NETWORKS = [
  { code: '44010', name: 'NTT docomo' },
  { code: '44050', name: 'KDDI au' },
  { code: '44020', name: 'SoftBank' },
  { code: '44011', name: 'Rakuten Mobile' },
] as const;
