/**
 * How much each enterprise sends, and when. Japanese businesses send by Japanese time: quiet at
 * night, a lunch peak, an evening peak; retail is busier at weekends, logistics and banking less.
 * Campaigns come as bursts at fixed times of day on top of the steady traffic.
 */
import { ENTERPRISES } from './accounts';

export interface TrafficProfile {
  readonly enterpriseId: string;
  /** Share of all messages. */
  readonly share: number;
  /** Relative volume per JST hour 0..23 (interpolated per minute). */
  readonly hourly: readonly number[];
  /** Relative volume per JST weekday, Sunday first (normalised to average 1). */
  readonly weekday: readonly number[];
  /** Share of the enterprise's steady (non-campaign) traffic sent from the Dashboard; the rest is API. */
  readonly dashboardShare: number;
  /** Share of the enterprise's messages that come from campaigns. */
  readonly campaignShare: number;
  /** Chance that a campaign runs on a given day, and the JST hours it may start at. */
  readonly campaignChance: number;
  readonly campaignHours: readonly number[];
}

export const TRAFFIC: readonly TrafficProfile[] = [
  {
    enterpriseId: 'ent-sakura',
    share: 0.5,
    hourly: [1, 0.6, 0.4, 0.3, 0.3, 0.5, 1.5, 3, 5, 6, 7, 8, 10, 8, 7, 6, 6, 8, 10, 10, 8, 6, 4, 2],
    weekday: [1.15, 0.95, 0.95, 0.95, 1, 1.1, 1.2],
    dashboardShare: 0.15,
    campaignShare: 0.12,
    campaignChance: 0.6,
    campaignHours: [11, 12, 17, 18],
  },
  {
    enterpriseId: 'ent-fuji',
    share: 0.3,
    hourly: [0.5, 0.3, 0.2, 0.2, 0.3, 0.8, 3, 7, 10, 10, 9, 8, 7, 8, 8, 8, 8, 9, 8, 6, 4, 2, 1, 0.7],
    weekday: [0.6, 1.1, 1.05, 1.05, 1.05, 1.1, 0.9],
    dashboardShare: 0.08,
    campaignShare: 0.04,
    campaignChance: 0.2,
    campaignHours: [10, 15],
  },
  {
    enterpriseId: 'ent-minato',
    share: 0.2,
    hourly: [1, 0.7, 0.5, 0.4, 0.4, 0.6, 1.5, 4, 7, 9, 10, 10, 11, 10, 9, 8, 8, 8, 7, 6, 5, 4, 3, 2],
    weekday: [0.7, 1.1, 1.05, 1.05, 1.05, 1.2, 0.8],
    dashboardShare: 0.03,
    campaignShare: 0.03,
    campaignChance: 0.1,
    campaignHours: [15, 19],
  },
];

if (TRAFFIC.length !== ENTERPRISES.length || TRAFFIC.some((t, i) => t.enterpriseId !== ENTERPRISES[i]?.id)) {
  throw new Error('simulator/traffic.ts must list one profile per enterprise, in the order of ENTERPRISES');
}

export const JST_OFFSET_MS = 9 * 3600_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1440;

/**
 * Relative volume for each JST minute of the day, interpolated between hour midpoints so the
 * curve has no steps, normalised to sum 1.
 */
export function minuteWeights(hourly: readonly number[]): Float64Array {
  const out = new Float64Array(MINUTES_PER_DAY);
  let sum = 0;
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    const h = (m + 0.5) / 60 - 0.5; // position relative to hour midpoints
    const h0 = Math.floor(h);
    const f = h - h0;
    const a = hourly[(h0 + 24) % 24] as number;
    const b = hourly[(h0 + 1 + 24) % 24] as number;
    out[m] = a + (b - a) * f;
    sum += out[m] as number;
  }
  for (let m = 0; m < MINUTES_PER_DAY; m++) out[m] = (out[m] as number) / sum;
  return out;
}

export function normalisedWeekday(weekday: readonly number[]): number[] {
  const mean = weekday.reduce((a, b) => a + b, 0) / weekday.length;
  return weekday.map((w) => w / mean);
}

/** Calendar date in Japan of an instant. Japan has had no daylight saving since 1951: a fixed +9 h is exact. */
export function jstDate(ms: number): { year: number; month: number; day: number } {
  const d = new Date(ms + JST_OFFSET_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
