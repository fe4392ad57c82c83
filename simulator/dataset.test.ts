/**
 * The generated world: deterministic, realistic for Japan, consistent with lib/cdr's lists, and
 * quick to search. No HTTP here.
 */
import { describe, expect, it } from 'vitest';
import { DELIVERY_STATUS_VALUES } from '../lib/cdr/status';
import { KNOWN_NETWORKS } from '../lib/cdr/networks';
import { explainDlrError } from '../lib/cdr/dlr-errors';
import { parseUpstreamTimestamp } from '../lib/time/zones';
import { CREDENTIALS, ENTERPRISES, SENDING_KEYS, findCredential } from './accounts';
import { statusAt, type SimCdr } from './cdr';
import { Dataset } from './dataset';
import { dayPosition, generate } from './generate';
import { smsEncoding } from './sms';
import { PINNED_NOW } from './test-client';
import { TrxCodec } from './trx-codec';

const DAY = 86_400_000;
const make = (over: Partial<Parameters<typeof generate>[0]> = {}, now = PINNED_NOW) =>
  new Dataset(generate({ seed: 5, days: 30, perDay: 600, now, ...over }), () => now);

const ds = make();
const visible = ds.visibleCount();
const sample: SimCdr[] = [];
for (let i = 0; i < visible; i += 9) sample.push(ds.recordAt(i)); // ~2000 records: expect() is not free
const share = (pred: (c: SimCdr) => boolean) => sample.filter(pred).length / sample.length;

describe('accounts', () => {
  it('has the demo credentials of the README, with their enterprises', () => {
    expect(CREDENTIALS.map((c) => [c.apiKey, c.secret, c.enterpriseId])).toEqual([
      ['demo', 'demo-secret', 'ent-sakura'],
      ['sakura-ops', 'sakura-ops-secret', 'ent-sakura'],
      ['fuji', 'fuji-secret', 'ent-fuji'],
      ['minato', 'minato-secret', 'ent-minato'],
      ['minato-audit', 'minato-audit-secret', 'ent-minato'],
      ['support', 'support-secret', null],
    ]);
    expect(ENTERPRISES.map((e) => [e.id, e.name])).toEqual([
      ['ent-sakura', 'Sakura Mart'],
      ['ent-fuji', 'Fuji Logistics'],
      ['ent-minato', 'Minato Bank'],
    ]);
    expect(SENDING_KEYS.filter((k) => k.enterpriseIndex === 0).map((k) => k.apiKey)).toEqual(
      expect.arrayContaining(['demo', 'sakura-ops']),
    );
    expect(new Set(SENDING_KEYS.map((k) => k.apiKey)).size).toBe(SENDING_KEYS.length);
    expect(findCredential('nobody')).toBeUndefined();
  });
});

describe('generation', () => {
  it('is deterministic for a seed, different for another', () => {
    const again = make();
    expect(again.size).toBe(ds.size);
    for (const i of [0, 17, 1000, visible - 1]) {
      expect(again.recordAt(i)).toEqual(ds.recordAt(i));
    }
    const other = make({ seed: 6 });
    expect(other.trxIdAt(100)).not.toBe(ds.trxIdAt(100));
  });

  it('keeps a message and its trx_id when the simulator starts a day later', () => {
    const later = make({}, PINNED_NOW + DAY / 2);
    // A day in the middle, and the first day the later window still holds (partly cut off).
    for (const i of [ds.lowerBound(PINNED_NOW - 2 * DAY) + 7, ds.lowerBound(PINNED_NOW - 29.5 * DAY) + 3]) {
      const j = later.findByTrxId(ds.trxIdAt(i));
      expect(j).toBeDefined();
      expect(later.trxIdAt(j!)).toBe(ds.trxIdAt(i));
      expect(later.recordAt(j!, 'UTC', PINNED_NOW)).toEqual(ds.recordAt(i, 'UTC', PINNED_NOW));
    }
  });

  it('produces about perDay messages a day over `days` days, sorted, up to now and a little beyond', () => {
    expect(visible / 30).toBeGreaterThan(600 * 0.8);
    expect(visible / 30).toBeLessThan(600 * 1.2);
    expect(ds.receivedAt(0)).toBeGreaterThanOrEqual(PINNED_NOW - 30 * DAY);
    expect(ds.receivedAt(0)).toBeLessThan(PINNED_NOW - 30 * DAY + 3600_000);
    expect(ds.size).toBeGreaterThan(visible); // tomorrow's traffic waits for the clock
    for (let i = 1; i < ds.size; i++) if (ds.receivedAt(i) < ds.receivedAt(i - 1)) throw new Error(`unsorted at ${i}`);
  });

  it('is quick: 90 days × 3000 a day in well under a few seconds', () => {
    const big = generate({ seed: 42, days: 90, perDay: 3000, now: PINNED_NOW });
    expect(big.columns.n).toBeGreaterThan(250_000);
    expect(big.generationMs).toBeLessThan(6000); // ~1 s on an idle machine; slack for a busy CI box
  });
});

describe('trx_id', () => {
  it('is 32 lowercase hex, unique, and found again', () => {
    const ids = new Set<string>();
    for (let i = 0; i < ds.size; i++) {
      const id = ds.trxIdAt(i);
      ids.add(id);
      if (ds.findByTrxId(id) !== i) throw new Error(`row ${i}: ${id} found at ${ds.findByTrxId(id)}`);
    }
    expect(ids.size).toBe(ds.size);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      break;
    }
  });

  it('orders rows received in the same millisecond by trx_id, each id found again', () => {
    const tied = make({ seed: 2, days: 3, perDay: 6000 });
    const codec = new TrxCodec(2);
    const ownId = (j: number) => {
      const { day, position } = dayPosition(tied.generated, j);
      return codec.encode(day, position);
    };
    let groups = 0;
    for (let lo = 0, hi = 1; lo < tied.size; lo = hi, hi = lo + 1) {
      while (hi < tied.size && tied.receivedAt(hi) === tied.receivedAt(lo)) hi++;
      const rows = Array.from({ length: hi - lo }, (_, k) => lo + k);
      for (const i of rows) if (tied.findByTrxId(tied.trxIdAt(i)) !== i) throw new Error(`row ${i} not found again`);
      if (rows.length === 1) continue;
      groups++;
      // The group hands out its own records' ids in ascending order: still one id per generated record.
      expect(rows.map((i) => tied.trxIdAt(i))).toEqual(rows.map(ownId).sort());
    }
    expect(groups).toBeGreaterThanOrEqual(3);
  });

  it('refuses forged ids without a table', () => {
    const codec = new TrxCodec(5);
    const id = codec.encode(20_000, 123);
    expect(codec.decode(id)).toEqual({ day: 20_000, position: 123 });
    for (let k = 0; k < 32; k++) {
      const flipped = id.slice(0, k) + (id[k] === 'a' ? 'b' : 'a') + id.slice(k + 1);
      expect(codec.decode(flipped)).toBeNull();
    }
    expect(new TrxCodec(6).decode(id)).toBeNull();
    expect(ds.findByTrxId('0'.repeat(32))).toBeUndefined();
  });
});

describe('realism', () => {
  it('uses every status with realistic frequencies', () => {
    expect(share((c) => c.delivery_status === 'DELIVRD')).toBeGreaterThan(0.88);
    expect(share((c) => c.delivery_status === 'DELIVRD')).toBeLessThan(0.97);
    for (const s of ['UNDELIV', 'EXPIRED', 'REJECTD']) {
      expect(
        share((c) => c.delivery_status === s),
        s,
      ).toBeGreaterThan(0.004);
      expect(
        share((c) => c.delivery_status === s),
        s,
      ).toBeLessThan(0.05);
    }
    const all = new Set<string>();
    for (let i = 0; i < visible; i++) all.add(DELIVERY_STATUS_VALUES[statusAt(ds.generated.columns, i, PINNED_NOW)]!);
    expect([...all].sort()).toEqual([...DELIVERY_STATUS_VALUES].sort());
  });

  it('matches DLR codes and dates to the status', () => {
    for (const c of sample) {
      if (c.delivery_status === 'DELIVRD') {
        expect(c.dlr_error_code).toBe('000');
        expect(c.dlr_reason).toBe('');
        expect(parseUpstreamTimestamp(c.date_delivered)!.getTime()).toBeGreaterThan(
          parseUpstreamTimestamp(c.date_submitted_to_mno)!.getTime(),
        );
      } else {
        expect(c.date_delivered).toBe('');
      }
      if (['UNDELIV', 'EXPIRED', 'REJECTD'].includes(c.delivery_status)) {
        expect(explainDlrError(c.dlr_error_code), c.dlr_error_code).toBeDefined();
        expect(c.dlr_reason.length).toBeGreaterThan(3);
      }
      if (c.delivery_status === 'UNDELIV') expect(explainDlrError(c.dlr_error_code)!.permanent).toBe(true);
      if (c.delivery_status === 'EXPIRED') expect(explainDlrError(c.dlr_error_code)!.permanent).toBe(false);
      if (c.date_submitted_to_mno) {
        const gap =
          parseUpstreamTimestamp(c.date_submitted_to_mno)!.getTime() -
          parseUpstreamTimestamp(c.date_received)!.getTime();
        expect(gap).toBeGreaterThan(0);
        expect(gap).toBeLessThan(65_000);
      }
    }
  });

  it('sends to Japanese mobile numbers on the four networks, docomo the largest', () => {
    for (const c of sample) expect(c.to_address).toMatch(/^81[789]0\d{8}$/);
    const shares = KNOWN_NETWORKS.map((n) => share((c) => c.network_code === n.code && c.network_name === n.name));
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect(shares[0]).toBe(Math.max(...shares));
    expect(Math.min(...shares)).toBeGreaterThan(0.02);
  });

  it('encodes texts as an SMS gateway would: UCS-2 for Japanese, parts and prices that agree', () => {
    for (const c of sample) {
      const text = c.msg_encrypted === 'true' ? c.unencrypted_message_body : c.message_body!;
      const enc = smsEncoding(text);
      expect(c.dcs).toBe(/[^\x20-\x7e]/.test(text) ? '8' : '0');
      expect(c.dcs).toBe(enc.dcs);
      expect(Number(c.message_length)).toBe(enc.length);
      expect(c.how_many_message_parts).toBe(enc.parts);
      expect(c.price).toMatch(/^\d+\.\d{8}$/);
      expect(c.price_currency).toBe('JPY');
      // Charged per part once submitted; what never reached a network (SKIPPED, refused) costs nothing.
      const perPart = Number(c.price) / c.how_many_message_parts;
      if (perPart === 0) expect(['SKIPPED', 'REJECTD']).toContain(c.delivery_status);
      else expect(perPart >= 2.5 && perPart <= 4, c.price).toBe(true);
    }
    expect(share((c) => c.how_many_message_parts > 1)).toBeGreaterThan(0.05);
    expect(share((c) => c.dcs === '0')).toBeGreaterThan(0.03);
  });

  it('encrypts some bodies: base64 ciphertext plus the plain text', () => {
    const encrypted = sample.filter((c) => c.msg_encrypted === 'true');
    expect(encrypted.length).toBeGreaterThan(0);
    for (const c of encrypted) {
      expect(c.message_body).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(c.unencrypted_message_body.length).toBeGreaterThan(0);
    }
    for (const c of sample.filter((x) => x.msg_encrypted === 'false')) expect(c.unencrypted_message_body).toBe('');
  });

  it('ties delivery method, campaign, users and references together', () => {
    for (const c of sample) {
      expect(['API', 'Dashboard', 'Campaign']).toContain(c.delivery_method);
      expect(c.bulk_campaign_id !== '').toBe(c.delivery_method === 'Campaign');
      if (c.delivery_method === 'API') expect(c.submitted_by_user_id).toBe('');
      else expect(c.submitted_by_user_email).toMatch(/@/);
      if (c.ref) expect(c.ref).toMatch(/^[A-Z]{3}-20\d{2}-\d{7}$/);
      const key = SENDING_KEYS.find((k) => k.apiKey === c.api_key)!;
      expect(ENTERPRISES[key.enterpriseIndex]!.id).toBe(c.enterprise_id);
      expect(c.entity_id).toBe(key.entityId);
    }
    expect(share((c) => c.delivery_method === 'Campaign')).toBeGreaterThan(0.01);
    expect(share((c) => c.ref === '')).toBeGreaterThan(0.1);
  });

  it('sends by Japanese time: quiet at night, busy at lunch and in the evening', () => {
    const byHour = new Array<number>(24).fill(0);
    for (let i = 0; i < visible; i++) byHour[(new Date(ds.receivedAt(i)).getUTCHours() + 9) % 24]!++;
    const night = byHour[3]!;
    expect(byHour[12]!).toBeGreaterThan(night * 5);
    expect(byHour[19]!).toBeGreaterThan(night * 5);
  });

  it('shows recent messages still in transit, and their outcome once the clock moves on', () => {
    const busy = make({ days: 1, perDay: 50_000, futureMs: 0 });
    const recent: number[] = [];
    for (let i = busy.upperBound(PINNED_NOW) - 1; i >= 0 && busy.receivedAt(i) > PINNED_NOW - 20_000; i--)
      recent.push(i);
    const pending = recent.filter((i) => ['ENROUTE', 'ACCEPTD'].includes(busy.recordAt(i).delivery_status));
    expect(pending.length).toBeGreaterThan(0);
    for (const i of pending) {
      const now = busy.recordAt(i);
      expect(now.date_delivered).toBe('');
      expect(now.dlr_error_code).toBe('');
    }
    const later = pending.map((i) => busy.recordAt(i, 'UTC', PINNED_NOW + 3 * DAY).delivery_status);
    expect(later.some((s) => !['ENROUTE', 'ACCEPTD'].includes(s))).toBe(true);
  });
});

describe('query', () => {
  it('agrees with a brute-force scan for filters, enterprises and orders', () => {
    const from = PINNED_NOW - 3 * DAY;
    const to = PINNED_NOW;
    const rows: { i: number; c: SimCdr }[] = [];
    for (let i = ds.lowerBound(from); i < ds.upperBound(to); i++) rows.push({ i, c: ds.recordAt(i) });
    const cases = [
      { enterpriseId: 'ent-fuji', filters: {} },
      { enterpriseId: null, filters: { status: 'EXPIRED' } }, // settles up to 2 days late: both scan paths
      { enterpriseId: 'ent-sakura', filters: { status: 'ACCEPTD' } }, // mostly messages still in transit
      { enterpriseId: 'ent-minato', filters: { network: '44020', oa: 'MinatoBank' } },
      { enterpriseId: null, filters: { 'api-key': 'demo', status: 'DELIVRD' } },
      { enterpriseId: null, filters: { da: rows[10]!.c.to_address } },
      { enterpriseId: null, filters: { 'client-reference': rows.find((r) => r.c.ref)!.c.ref } },
    ];
    for (const q of cases) {
      const expected = rows.filter(
        ({ c }) =>
          (q.enterpriseId === null || c.enterprise_id === q.enterpriseId) &&
          Object.entries(q.filters).every(([param, v]) => {
            const field = {
              status: 'delivery_status',
              network: 'network_code',
              oa: 'from_address',
              'api-key': 'api_key',
              da: 'to_address',
              'client-reference': 'ref',
            }[param]!;
            return c[field as keyof SimCdr] === v;
          }),
      );
      const asc = ds.query({ from, to, enterpriseId: q.enterpriseId, filters: q.filters, offset: 3, limit: 7 });
      expect(asc.total, JSON.stringify(q)).toBe(expected.length);
      expect(asc.indices).toEqual(expected.slice(3, 10).map((r) => r.i));
      const desc = ds.query({
        from,
        to,
        enterpriseId: q.enterpriseId,
        filters: q.filters,
        order: 'desc',
        offset: 0,
        limit: 5,
      });
      expect(desc.indices).toEqual(
        expected
          .slice(-5)
          .reverse()
          .map((r) => r.i),
      );
    }
  });

  it('answers a 31-day query over ~300k records in milliseconds', () => {
    const big = new Dataset(generate({ seed: 42, days: 31, perDay: 10_000, now: PINNED_NOW }), () => PINNED_NOW);
    const q = {
      from: PINNED_NOW - 31 * DAY,
      to: PINNED_NOW,
      enterpriseId: 'ent-sakura',
      filters: { network: '44010', status: 'DELIVRD' },
      order: 'desc',
      offset: 900,
      limit: 100,
    } as const;
    big.query(q); // the first call runs before the JIT has compiled the scan
    let best = Infinity;
    let r = big.query(q);
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      r = big.query(q);
      best = Math.min(best, performance.now() - t0);
    }
    expect(best).toBeLessThan(50); // a few ms on an idle machine
    expect(r.total).toBeGreaterThan(10_000);
    expect(r.indices).toHaveLength(100);
  });
});

describe('smsEncoding', () => {
  it('counts GSM septets and UCS-2 units into parts', () => {
    expect(smsEncoding('a'.repeat(160))).toEqual({ dcs: '0', length: 160, parts: 1 });
    expect(smsEncoding('a'.repeat(161))).toEqual({ dcs: '0', length: 161, parts: 2 });
    expect(smsEncoding('a'.repeat(306))).toEqual({ dcs: '0', length: 306, parts: 2 });
    expect(smsEncoding('a'.repeat(307))).toEqual({ dcs: '0', length: 307, parts: 3 });
    expect(smsEncoding('€'.repeat(80))).toEqual({ dcs: '0', length: 80, parts: 1 });
    expect(smsEncoding('€'.repeat(81))).toEqual({ dcs: '0', length: 81, parts: 2 });
    expect(smsEncoding('あ'.repeat(70))).toEqual({ dcs: '8', length: 70, parts: 1 });
    expect(smsEncoding('あ'.repeat(71))).toEqual({ dcs: '8', length: 71, parts: 2 });
    expect(smsEncoding('あ'.repeat(134))).toEqual({ dcs: '8', length: 134, parts: 2 });
    expect(smsEncoding('あ'.repeat(135))).toEqual({ dcs: '8', length: 135, parts: 3 });
  });
});
