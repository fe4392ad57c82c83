/**
 * Builds the simulated history: one typed-array column per attribute, rows sorted by date_received.
 * A million rows cost ~40 MB and a second or so; CDR objects are only built for the page a client
 * asks for (see cdr.ts).
 *
 * Determinism: each UTC day has its own random stream (seeded by seed + day number) and each
 * record its own (seed + day + position in the day), so a day's traffic does not depend on where
 * the window starts — restarting the simulator later shows the same messages with the same trx_id.
 */
import { ENTERPRISES, SENDERS, SENDING_KEYS, USERS, type DeliveryMethod } from './accounts';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../lib/cdr/status';
import { KNOWN_NETWORKS } from '../lib/cdr/networks';
import { DLR_ERRORS } from '../lib/cdr/dlr-errors';
import { Rng, cumulative, hash32 } from './rng';
import { REF_PREFIXES, TEMPLATES } from './templates';
import { DAY_MS, JST_OFFSET_MS, MINUTES_PER_DAY, TRAFFIC, minuteWeights, normalisedWeekday } from './traffic';

export interface GenerateOptions {
  seed: number;
  days: number;
  perDay: number;
  /** The present moment: history reaches back `days` days from it. */
  now: number;
  /**
   * Traffic is generated this far past `now` (to the end of that UTC day) and revealed as the clock
   * reaches it, so a long-running simulator keeps receiving messages.
   */
  futureMs?: number;
}

export const DEFAULT_FUTURE_MS = 2 * DAY_MS;
/** submitDelay value of a message that was never handed to a network (SKIPPED, refused by the platform). */
export const NOT_SUBMITTED = 0xffff;
export const NO_USER = 0xff;
export const FLAG_ENCRYPTED = 1;
export const FLAG_ADMIN = 2;

export const METHODS: readonly DeliveryMethod[] = ['API', 'Dashboard', 'Campaign'];
/** Sources 0..NE-1 of a minute's events are the enterprises' steady traffic; NE + b is today's burst b. */
const NE = ENTERPRISES.length;
const API = 0;
const DASHBOARD = 1;
const CAMPAIGN = 2;

export const STATUS_INDEX = Object.fromEntries(DELIVERY_STATUSES.map((s, i) => [s.value, i])) as Record<
  DeliveryStatus,
  number
>;

/** DLR codes as the records write them: "" (none yet), "000" (delivered), then the gateway's causes. */
export const DLR_CODES: readonly string[] = [
  '',
  '000',
  ...Object.keys(DLR_ERRORS)
    .filter((k) => k !== '0')
    .map((k) => k.padStart(3, '0')),
];
const dlrIndex = (cause: number) => DLR_CODES.indexOf(String(cause).padStart(3, '0'));
const codesWhere = (pred: (cause: number, permanent: boolean) => boolean) =>
  Object.entries(DLR_ERRORS)
    .filter(([k, v]) => k !== '0' && pred(Number(k), v.permanent))
    .map(([k]) => dlrIndex(Number(k)));
const UNDELIV_CODES = codesWhere((c, permanent) => permanent && c !== 13);
const REJECTD_CODES = [dlrIndex(13), dlrIndex(9), dlrIndex(34)];
const EXPIRED_CODES = codesWhere((c, permanent) => !permanent && c !== 34);
const UNKNOWN_CODES = [dlrIndex(27), dlrIndex(60), dlrIndex(61)];
const DELIVERED_CODE = 1;

/**
 * The categorical attributes a filter can ask about, packed into one word per row so that any
 * combination of filters is one `(attrs & mask) === want` test: a million rows in a few ms.
 */
export const ATTR_SHIFT = { enterprise: 0, network: 4, sendingKey: 8, sender: 16, finalStatus: 24 } as const;
export const ATTR_MASK = {
  enterprise: 0xf,
  network: 0xf << 4,
  sendingKey: 0xff << 8,
  sender: 0xff << 16,
  finalStatus: 0xf << 24,
} as const;
if (
  ENTERPRISES.length > 16 ||
  KNOWN_NETWORKS.length > 16 ||
  SENDING_KEYS.length > 256 ||
  SENDERS.length > 256 ||
  DELIVERY_STATUSES.length > 16
) {
  throw new Error('simulator/generate.ts: a table outgrew its bits in ATTR_SHIFT');
}

export interface Columns {
  /** Rows in use (the arrays may be longer). */
  n: number;
  /** enterprise, network, sendingKey, sender and finalStatus packed per ATTR_SHIFT. */
  attrs: Uint32Array;
  /** date_received, ms since the epoch, ascending. */
  received: Float64Array;
  /** date_submitted_to_mno − date_received in ms; NOT_SUBMITTED when never submitted. */
  submitDelay: Uint16Array;
  /** When the final state became known, ms after date_received (date_delivered for DELIVRD). */
  finalDelay: Uint32Array;
  /** Index into DELIVERY_STATUSES: the state once finalDelay has passed. */
  finalStatus: Uint8Array;
  /** The state shown after submission and before finalDelay (ENROUTE or ACCEPTD). */
  pendingStatus: Uint8Array;
  /** Index into DLR_CODES, valid once the final state is known. */
  dlr: Uint8Array;
  network: Uint8Array;
  enterprise: Uint8Array;
  sendingKey: Uint8Array;
  user: Uint8Array;
  sender: Uint8Array;
  recipient: Uint32Array;
  template: Uint8Array;
  /** 0: no client reference; otherwise REF_PREFIXES index + 1. */
  refKind: Uint8Array;
  refNum: Uint32Array;
  /** 0: not a campaign; otherwise campaigns index + 1. */
  campaign: Uint32Array;
  method: Uint8Array;
  flags: Uint8Array;
}

export interface Campaign {
  id: string;
  name: string;
  enterpriseIndex: number;
  template: number;
  sendingKey: number;
  user: number;
}

/** The people the enterprises write to: one phone number (and its network) per customer. */
export interface RecipientPool {
  number: Float64Array;
  network: Uint8Array;
  /** Numbers that no longer exist: every message to them is UNDELIV. */
  dead: Uint8Array;
  byNumber: Map<number, number>;
  start: number[];
  size: number[];
}

/** Where each UTC day's rows are, so a trx_id's (day, position) finds its row. */
export interface DayIndex {
  firstDay: number;
  /** Row of the day's first kept record. */
  first: Int32Array;
  /** Records of the day dropped because they fell before the window (they still used positions). */
  skipped: Int32Array;
  count: Int32Array;
}

export interface Generated {
  seed: number;
  columns: Columns;
  pool: RecipientPool;
  campaigns: Campaign[];
  days: DayIndex;
  /** The longest time any record takes to reach its final state: older records are settled. */
  settleMs: number;
  generationMs: number;
}

/** The position of row i within its UTC day's generated stream: the key of its content and, via trx-ids.ts, of its trx_id. */
export function dayPosition(g: Generated, i: number): { day: number; position: number } {
  const day = Math.floor(g.columns.received[i]! / DAY_MS);
  const d = day - g.days.firstDay;
  return { day, position: i - g.days.first[d]! + g.days.skipped[d]! };
}

/** The row generated at (day, position), or undefined when that record is outside the window. */
export function rowAtPosition(g: Generated, day: number, position: number): number | undefined {
  const d = day - g.days.firstDay;
  if (d < 0 || d >= g.days.first.length) return undefined;
  const offset = position - g.days.skipped[d]!;
  if (offset < 0 || offset >= g.days.count[d]!) return undefined;
  return g.days.first[d]! + offset;
}

// Subscriber shares of docomo, au, SoftBank and Rakuten Mobile, in KNOWN_NETWORKS order.
const NETWORK_SHARES = cumulative([0.43, 0.31, 0.21, 0.05]);
if (NETWORK_SHARES.length !== KNOWN_NETWORKS.length)
  throw new Error('simulator: one network share per KNOWN_NETWORKS entry');
const MOBILE_PREFIXES = [70, 80, 90];
const MOBILE_PREFIX_SHARES = cumulative([0.15, 0.3, 0.55]);

function buildPool(seed: number, perDay: number): RecipientPool {
  const rng = new Rng(hash32(seed, 0x9001));
  const sizes = TRAFFIC.map((t) => Math.max(300, Math.min(150_000, Math.round(perDay * t.share * 6))));
  const total = sizes.reduce((a, b) => a + b, 0);
  const number = new Float64Array(total);
  const network = new Uint8Array(total);
  const dead = new Uint8Array(total);
  const byNumber = new Map<number, number>();
  const start: number[] = [];
  let i = 0;
  for (const size of sizes) {
    start.push(i);
    for (let k = 0; k < size; k++, i++) {
      let n: number;
      do {
        const prefix = MOBILE_PREFIXES[rng.weighted(MOBILE_PREFIX_SHARES)] as number;
        n = 81e10 + prefix * 1e8 + rng.int(1e8);
      } while (byNumber.has(n));
      byNumber.set(n, i);
      number[i] = n;
      network[i] = rng.weighted(NETWORK_SHARES);
      dead[i] = rng.next() < 0.012 ? 1 : 0;
    }
  }
  return { number, network, dead, byNumber, start, size: sizes };
}

function allocate(capacity: number): Columns {
  return {
    n: 0,
    attrs: new Uint32Array(capacity),
    received: new Float64Array(capacity),
    submitDelay: new Uint16Array(capacity),
    finalDelay: new Uint32Array(capacity),
    finalStatus: new Uint8Array(capacity),
    pendingStatus: new Uint8Array(capacity),
    dlr: new Uint8Array(capacity),
    network: new Uint8Array(capacity),
    enterprise: new Uint8Array(capacity),
    sendingKey: new Uint8Array(capacity),
    user: new Uint8Array(capacity),
    sender: new Uint8Array(capacity),
    recipient: new Uint32Array(capacity),
    template: new Uint8Array(capacity),
    refKind: new Uint8Array(capacity),
    refNum: new Uint32Array(capacity),
    campaign: new Uint32Array(capacity),
    method: new Uint8Array(capacity),
    flags: new Uint8Array(capacity),
  };
}

/** Copies the first n rows into arrays of `capacity` (to grow, or to trim at the end). */
function resize(c: Columns, capacity: number): Columns {
  const out = allocate(capacity);
  out.n = c.n;
  for (const key of Object.keys(c) as (keyof Columns)[]) {
    if (key === 'n') continue;
    (out[key] as Uint8Array).set((c[key] as Uint8Array).subarray(0, c.n));
  }
  return out;
}

/** Per enterprise and method: candidate templates / keys with cumulative weights. */
function choicesBy<T>(
  items: readonly T[],
  enterpriseOf: (t: T) => number,
  methodsOf: (t: T) => readonly DeliveryMethod[],
  weightOf: (t: T) => number,
) {
  return ENTERPRISES.map((_, e) =>
    METHODS.map((method) => {
      const idx = items.flatMap((t, i) => (enterpriseOf(t) === e && methodsOf(t).includes(method) ? [i] : []));
      return { idx, cum: cumulative(idx.map((i) => weightOf(items[i] as T))) };
    }),
  );
}

const enterpriseIndexOf = (id: string) => ENTERPRISES.findIndex((e) => e.id === id);
const TEMPLATE_CHOICES = choicesBy(
  TEMPLATES,
  (t) => enterpriseIndexOf(t.enterpriseId),
  (t) => [t.method],
  (t) => t.weight,
);
const KEY_CHOICES = choicesBy(
  SENDING_KEYS,
  (k) => k.enterpriseIndex,
  (k) => k.methods,
  (k) => k.weight,
);
const SENDER_BASE = ENTERPRISES.map((_, e) => SENDERS.findIndex((s) => s.enterpriseIndex === e));
const USERS_OF = ENTERPRISES.map((_, e) => USERS.flatMap((u, i) => (u.enterpriseIndex === e && !u.isAdmin ? [i] : [])));
const ADMIN_OF = ENTERPRISES.map((_, e) => USERS.findIndex((u) => u.enterpriseIndex === e && u.isAdmin));
const REF_KIND = TEMPLATES.map((t) => (t.refPrefix ? REF_PREFIXES.indexOf(t.refPrefix) + 1 : 0));

function yyyymmdd(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
}

export function generate(opts: GenerateOptions): Generated {
  const started = performance.now();
  const { seed, perDay } = opts;
  const cutoff = opts.now - opts.days * DAY_MS;
  const firstDay = Math.floor(cutoff / DAY_MS);
  const lastDay = Math.floor((opts.now + (opts.futureMs ?? DEFAULT_FUTURE_MS)) / DAY_MS);
  const dayCount = lastDay - firstDay + 1;

  const pool = buildPool(seed, perDay);
  const campaigns: Campaign[] = [];
  const days: DayIndex = {
    firstDay,
    first: new Int32Array(dayCount),
    skipped: new Int32Array(dayCount),
    count: new Int32Array(dayCount),
  };
  let cols = allocate(Math.ceil(perDay * dayCount * 1.25) + 1024);

  const minuteW = TRAFFIC.map((t) => minuteWeights(t.hourly));
  const weekday = TRAFFIC.map((t) => normalisedWeekday(t.weekday));
  const campaignTemplates = ENTERPRISES.map((_, e) => TEMPLATE_CHOICES[e]![CAMPAIGN]!);
  const campaignKeys = ENTERPRISES.map((_, e) => KEY_CHOICES[e]![CAMPAIGN]!);

  const dayRng = new Rng(0);
  const rec = new Rng(0);
  // Events of one minute, packed as offsetMs * 64 + source so a numeric sort orders them by time.
  let events = new Float64Array(4096);

  for (let day = firstDay; day <= lastDay; day++) {
    const d = day - firstDay;
    const dayStart = day * DAY_MS;
    dayRng.reseed(hash32(seed, day, 0xda7));
    const noise = TRAFFIC.map(() => 0.9 + 0.2 * dayRng.next());

    // Today's campaigns, at most one per enterprise (so a minute's sources stay below 64): a burst
    // that starts on a quarter hour and fades over 8–28 minutes.
    const today: { c: number; start: number; duration: number; size: number }[] = [];
    TRAFFIC.forEach((t, e) => {
      if (dayRng.next() >= t.campaignChance) return;
      const jstHour = dayRng.pick(t.campaignHours);
      const start = ((jstHour * 60 - 540 + MINUTES_PER_DAY) % MINUTES_PER_DAY) + 15 * dayRng.int(4);
      const duration = 8 + dayRng.int(21);
      const size = ((perDay * t.share * t.campaignShare) / t.campaignChance) * dayRng.range(0.6, 1.4);
      const tpl = campaignTemplates[e]!;
      const keys = campaignKeys[e]!;
      const template = tpl.idx[dayRng.weighted(tpl.cum)]!;
      const users = USERS_OF[e]!;
      campaigns.push({
        id: `bc-${yyyymmdd(day)}-${(hash32(seed, day, e, 0xca) & 0xffff).toString(16).padStart(4, '0')}`,
        name: TEMPLATES[template]!.campaign ?? 'Campaign',
        enterpriseIndex: e,
        template,
        sendingKey: keys.idx[dayRng.weighted(keys.cum)]!,
        user: users[dayRng.int(users.length)]!,
      });
      today.push({ c: campaigns.length, start, duration, size });
    });

    days.first[d] = cols.n;
    let position = 0;
    for (let m = 0; m < MINUTES_PER_DAY; m++) {
      const minuteStart = dayStart + m * 60_000;
      if (minuteStart + 60_000 <= cutoff) {
        // Still draw the minute's counts so later minutes see the same random stream, and keep
        // counting positions so the day's later records keep their trx_id.
        const dropped = countOnly(dayRng, m, minuteStart, today, perDay, noise, minuteW, weekday);
        position += dropped;
        days.skipped[d]! += dropped;
        continue;
      }
      let k = 0;
      const push = (offset: number, source: number) => {
        if (k === events.length) {
          const bigger = new Float64Array(events.length * 2);
          bigger.set(events);
          events = bigger;
        }
        events[k++] = offset * 64 + source;
      };
      const jstMinute = (m + 540) % MINUTES_PER_DAY;
      const jstDow = (Math.floor((minuteStart + JST_OFFSET_MS) / DAY_MS) + 4) % 7; // 1970-01-01 was a Thursday
      for (let e = 0; e < TRAFFIC.length; e++) {
        const t = TRAFFIC[e]!;
        const mean =
          perDay * t.share * (1 - t.campaignShare) * noise[e]! * weekday[e]![jstDow]! * minuteW[e]![jstMinute]!;
        for (let n = dayRng.poisson(mean); n > 0; n--) push(dayRng.int(60_000), e);
      }
      for (let b = 0; b < today.length; b++) {
        const burst = today[b]!;
        const since = m - burst.start;
        if (since < 0 || since >= burst.duration) continue;
        // Scheduled sends start on the exact minute (…:00.000): records on a second boundary.
        let n = dayRng.poisson(burst.size * burstShare(since, burst.duration));
        if (since === 0) {
          push(0, NE + b);
          n--;
        }
        for (; n > 0; n--) push(dayRng.int(60_000), NE + b);
      }
      const sorted = events.subarray(0, k).sort();
      for (let j = 0; j < k; j++) {
        const packed = sorted[j]!;
        const source = packed % 64;
        const at = minuteStart + (packed - source) / 64;
        const pos = position++;
        if (at < cutoff) {
          days.skipped[d]!++;
          continue;
        }
        if (cols.n === cols.received.length) cols = resize(cols, Math.ceil(cols.n * 1.5));
        writeRecord(
          cols,
          rec.reseed(hash32(seed, day, pos)),
          at,
          source,
          source < NE ? 0 : today[source - NE]!.c,
          pool,
          campaigns,
        );
      }
    }
    days.count[d] = cols.n - days.first[d]!;
  }

  cols = resize(cols, cols.n);
  let settleMs = 0;
  for (let i = 0; i < cols.n; i++) if (cols.finalDelay[i]! > settleMs) settleMs = cols.finalDelay[i]!;
  return { seed, columns: cols, pool, campaigns, days, settleMs, generationMs: performance.now() - started };
}

/** Share of a burst sent in its minute `since`: front-loaded, fading exponentially. */
function burstShare(since: number, duration: number): number {
  const rate = 3 / duration;
  const total = 1 - Math.exp(-rate * duration);
  return (Math.exp(-rate * since) - Math.exp(-rate * (since + 1))) / total;
}

/** Draws a minute's events exactly as generate() would, without keeping them; returns how many. */
function countOnly(
  rng: Rng,
  m: number,
  minuteStart: number,
  today: { start: number; duration: number; size: number }[],
  perDay: number,
  noise: number[],
  minuteW: Float64Array[],
  weekday: number[][],
): number {
  let k = 0;
  const jstMinute = (m + 540) % MINUTES_PER_DAY;
  const jstDow = (Math.floor((minuteStart + JST_OFFSET_MS) / DAY_MS) + 4) % 7;
  for (let e = 0; e < TRAFFIC.length; e++) {
    const t = TRAFFIC[e]!;
    const mean = perDay * t.share * (1 - t.campaignShare) * noise[e]! * weekday[e]![jstDow]! * minuteW[e]![jstMinute]!;
    for (let n = rng.poisson(mean); n > 0; n--, k++) rng.int(60_000);
  }
  for (const burst of today) {
    const since = m - burst.start;
    if (since < 0 || since >= burst.duration) continue;
    let n = rng.poisson(burst.size * burstShare(since, burst.duration));
    if (since === 0) {
      k++;
      n--;
    }
    for (; n > 0; n--, k++) rng.int(60_000);
  }
  return k;
}

/** Status model: cumulative shares of the final state of a message to a live number. */
const OUTCOMES: readonly [DeliveryStatus, number][] = [
  ['DELIVRD', 0.9345],
  ['UNDELIV', 0.02],
  ['EXPIRED', 0.018],
  ['REJECTD', 0.012],
  ['UNKNOWN', 0.004],
  ['DELETED', 0.003],
  ['SKIPPED', 0.003],
  ['ACCEPTD', 0.0035], // the delivery report never came
  ['ENROUTE', 0.002],
];
const OUTCOME_CUM = cumulative(OUTCOMES.map(([, w]) => w));
const OUTCOME_STATUS = OUTCOMES.map(([s]) => STATUS_INDEX[s]);
const S = STATUS_INDEX;

/** source: enterprise index (< NE) for steady traffic; campaignRow: campaigns index + 1 for a burst. */
function writeRecord(
  c: Columns,
  rng: Rng,
  at: number,
  source: number,
  campaignRow: number,
  pool: RecipientPool,
  campaigns: Campaign[],
): void {
  const i = c.n++;
  let e: number;
  let method: number;
  let template: number;
  let key: number;
  let user = NO_USER;
  let flags = 0;
  if (campaignRow === 0) {
    e = source;
    method = rng.next() < TRAFFIC[e]!.dashboardShare ? DASHBOARD : API;
    const tpl = TEMPLATE_CHOICES[e]![method]!;
    template = tpl.idx[rng.weighted(tpl.cum)]!;
    const keys = KEY_CHOICES[e]![method]!;
    key = keys.idx[rng.weighted(keys.cum)]!;
    if (method === DASHBOARD) {
      if (rng.next() < 0.12) {
        user = ADMIN_OF[e]!;
        flags |= FLAG_ADMIN;
      } else user = rng.pick(USERS_OF[e]!);
    }
    c.campaign[i] = 0;
  } else {
    const campaign = campaigns[campaignRow - 1]!;
    e = campaign.enterpriseIndex;
    method = CAMPAIGN;
    template = campaign.template;
    key = campaign.sendingKey;
    user = campaign.user;
    c.campaign[i] = campaignRow;
  }
  const tpl = TEMPLATES[template]!;
  const r = pool.start[e]! + Math.floor(pool.size[e]! * rng.next() ** 2); // a few customers get most messages
  c.received[i] = at;
  c.enterprise[i] = e;
  c.method[i] = method;
  c.template[i] = template;
  c.sendingKey[i] = key;
  c.user[i] = user;
  c.sender[i] = SENDER_BASE[e]! + rng.pick(tpl.senders);
  c.recipient[i] = r;
  c.network[i] = pool.network[r]!;
  const kind = REF_KIND[template]!;
  const dropRef = method === API && rng.next() < 0.04; // some integrations forget the reference
  c.refKind[i] = dropRef ? 0 : kind;
  // The number is kept even when the reference is dropped: the text still names the order.
  c.refNum[i] = kind ? rng.int(10_000_000) : 0;
  if (rng.next() < tpl.encrypted) flags |= FLAG_ENCRYPTED;
  c.flags[i] = flags;

  // Delivery: submitted about a second after receipt (longer while a campaign floods the queue).
  let submit =
    method === CAMPAIGN
      ? Math.round(rng.logRange(400, 30_000))
      : rng.next() < 0.02
        ? Math.round(rng.logRange(2_000, 15_000))
        : 300 + rng.int(1_400);
  const status = pool.dead[r] ? S.UNDELIV : OUTCOME_STATUS[rng.weighted(OUTCOME_CUM)]!;
  let final: number;
  let dlr = 0;
  const after = (min: number, max: number) => submit + Math.round(rng.logRange(min, max));
  switch (status) {
    case S.DELIVRD: {
      const x = rng.next();
      final = x < 0.8 ? after(1_500, 15_000) : x < 0.95 ? after(15_000, 180_000) : after(180_000, 6 * 3600_000);
      dlr = DELIVERED_CODE;
      break;
    }
    case S.UNDELIV:
      final = after(1_000, 8_000);
      dlr = pool.dead[r] ? dlrIndex(1) : rng.pick(UNDELIV_CODES);
      break;
    case S.EXPIRED:
      final = after(6 * 3600_000, 48 * 3600_000);
      dlr = rng.pick(EXPIRED_CODES);
      break;
    case S.REJECTD:
      if (rng.next() < 0.5) {
        submit = NOT_SUBMITTED; // refused by the platform itself
        final = 50 + rng.int(400);
      } else final = after(300, 3_000);
      dlr = rng.pick(REJECTD_CODES);
      break;
    case S.UNKNOWN:
      final = after(600_000, 3 * 3600_000);
      dlr = rng.pick(UNKNOWN_CODES);
      break;
    case S.DELETED:
      final = after(3600_000, 12 * 3600_000);
      break;
    case S.SKIPPED:
      submit = NOT_SUBMITTED;
      final = 20 + rng.int(300);
      break;
    default: // ACCEPTD / ENROUTE for good: the state they reach, then nothing more
      final = after(5_000, 60_000);
  }
  c.submitDelay[i] = submit;
  c.finalDelay[i] = final;
  c.finalStatus[i] = status;
  c.pendingStatus[i] = status === S.ENROUTE || (status !== S.ACCEPTD && rng.next() < 0.35) ? S.ENROUTE : S.ACCEPTD;
  c.dlr[i] = dlr;
  c.attrs[i] =
    (e << ATTR_SHIFT.enterprise) |
    (c.network[i]! << ATTR_SHIFT.network) |
    (key << ATTR_SHIFT.sendingKey) |
    (c.sender[i]! << ATTR_SHIFT.sender) |
    (status << ATTR_SHIFT.finalStatus);
}
