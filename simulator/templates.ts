/**
 * What the enterprises send. Each template is a message a real sender of that kind would send, in
 * Japanese (UCS-2) or English (GSM), with placeholders filled per record when a page is built:
 * {ref} the record's client reference, {otp} a 6-digit code, {date} a delivery date, {short} a
 * short-link token, {amount} a yen amount. Texts are chosen so that some need two or three parts.
 */
import type { DeliveryMethod } from './accounts';

export interface Template {
  readonly enterpriseId: string;
  readonly method: DeliveryMethod;
  readonly text: string;
  /** Client reference prefix (`ORD-2026-0012345`); null: the record carries no reference. */
  readonly refPrefix: string | null;
  /** Indices into the enterprise's senders. */
  readonly senders: readonly number[];
  readonly weight: number;
  /** Share of these messages sent encrypted (msg_encrypted "true"). */
  readonly encrypted: number;
  /** Campaign name, for campaign templates. */
  readonly campaign?: string;
}

export const TEMPLATES: readonly Template[] = [
  // Sakura Mart: orders, pickups, sign-in codes; promotions as campaigns.
  {
    enterpriseId: 'ent-sakura',
    method: 'API',
    text: '【サクラマート】ご注文{ref}の商品を発送しました。お届け予定日：{date}',
    refPrefix: 'ORD',
    senders: [0, 1],
    weight: 5,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-sakura',
    method: 'API',
    text: 'SakuraMart: your order {ref} has shipped. Estimated delivery {date}.',
    refPrefix: 'ORD',
    senders: [1],
    weight: 1,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-sakura',
    method: 'API',
    text: '【サクラマート】認証コードは{otp}です。有効期限は10分です。',
    refPrefix: null,
    senders: [0, 2],
    weight: 4,
    encrypted: 0.1,
  },
  {
    enterpriseId: 'ent-sakura',
    method: 'API',
    text: 'Your SakuraMart verification code is {otp}. It expires in 10 minutes.',
    refPrefix: null,
    senders: [0],
    weight: 1,
    encrypted: 0.1,
  },
  {
    enterpriseId: 'ent-sakura',
    method: 'API',
    text: '【サクラマート】ご注文{ref}の店舗受取の準備ができました。受取期限は{date}です。店頭でこのメッセージをご提示ください。',
    refPrefix: 'PKU',
    senders: [0],
    weight: 2,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-sakura',
    method: 'Dashboard',
    text: '【サクラマート】本日は設備点検のため20時で閉店いたします。ご不便をおかけします。',
    refPrefix: null,
    senders: [0],
    weight: 2,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-sakura',
    method: 'Dashboard',
    text: '【サクラマート】お取り置きの商品（{ref}）が入荷しました。',
    refPrefix: 'RSV',
    senders: [0],
    weight: 1,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-sakura',
    method: 'Campaign',
    campaign: 'Weekend sale',
    refPrefix: null,
    senders: [0],
    weight: 2,
    encrypted: 0,
    text: '【サクラマート】週末限定セール開催中！全品10%オフ、アプリ会員様はさらにポイント5倍。クーポンはこちら https://sakura.example/c/{short} 配信停止はSTOPと返信',
  },
  {
    enterpriseId: 'ent-sakura',
    method: 'Campaign',
    campaign: 'Lunch bento',
    refPrefix: null,
    senders: [0],
    weight: 1,
    encrypted: 0,
    text: 'SakuraMart lunch deal: any bento + drink for 500 yen until 14:00 today. Show code {otp} at the till. Reply STOP to opt out.',
  },

  // Fuji Logistics: parcel tracking, missed deliveries; seasonal notices as campaigns.
  {
    enterpriseId: 'ent-fuji',
    method: 'API',
    text: '【富士ロジ】お荷物（伝票番号{ref}）を{date}にお届けします。日時変更：https://fuji.example/r/{short}',
    refPrefix: 'SHP',
    senders: [0, 1],
    weight: 6,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-fuji',
    method: 'API',
    text: 'Fuji Logistics: parcel {ref} will be delivered on {date}. Change the time slot at https://fuji.example/r/{short}',
    refPrefix: 'SHP',
    senders: [1, 2],
    weight: 1,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-fuji',
    method: 'API',
    text: '【富士ロジ】ご不在のためお荷物（{ref}）を持ち帰りました。再配達のご依頼は https://fuji.example/r/{short} から。保管期限は{date}です。',
    refPrefix: 'SHP',
    senders: [0],
    weight: 2,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-fuji',
    method: 'Dashboard',
    text: '【富士ロジ】配達ドライバーがまもなく到着します（{ref}）。',
    refPrefix: 'DLV',
    senders: [0],
    weight: 2,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-fuji',
    method: 'Dashboard',
    text: 'Fuji Logistics: delivery {ref} is delayed by weather. New estimate: {date}.',
    refPrefix: 'DLV',
    senders: [1],
    weight: 1,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-fuji',
    method: 'Campaign',
    campaign: 'Year-end shipping',
    refPrefix: null,
    senders: [0],
    weight: 1,
    encrypted: 0,
    text: '【富士ロジ】年末年始の配送スケジュールのご案内。12/29〜1/3は集荷受付時間が変更になります。詳しくは https://fuji.example/n/{short}',
  },

  // Minato Bank: one-time passwords (often encrypted), transfer and card alerts; loan offers.
  {
    enterpriseId: 'ent-minato',
    method: 'API',
    text: '【みなと銀行】ワンタイムパスワード：{otp} このコードを第三者に教えないでください。',
    refPrefix: null,
    senders: [0],
    weight: 6,
    encrypted: 0.6,
  },
  {
    enterpriseId: 'ent-minato',
    method: 'API',
    text: 'Minato Bank: your one-time password is {otp}. Never share it with anyone, including bank staff.',
    refPrefix: null,
    senders: [0, 1],
    weight: 1,
    encrypted: 0.6,
  },
  {
    enterpriseId: 'ent-minato',
    method: 'API',
    text: '【みなと銀行】お振込み（受付番号{ref}）{amount}円を受け付けました。',
    refPrefix: 'TXN',
    senders: [0],
    weight: 2,
    encrypted: 0.3,
  },
  {
    enterpriseId: 'ent-minato',
    method: 'API',
    text: '【みなと銀行】カードご利用のお知らせ：{amount}円（{ref}）。お心当たりのない場合はお電話ください。',
    refPrefix: 'CRD',
    senders: [0, 1],
    weight: 2,
    encrypted: 0.2,
  },
  {
    enterpriseId: 'ent-minato',
    method: 'Dashboard',
    text: '【みなと銀行】ご来店予約（{ref}）を承りました。{date}にお待ちしております。',
    refPrefix: 'APT',
    senders: [0],
    weight: 1,
    encrypted: 0,
  },
  {
    enterpriseId: 'ent-minato',
    method: 'Campaign',
    campaign: 'Mortgage review',
    refPrefix: null,
    senders: [0],
    weight: 1,
    encrypted: 0,
    text: '【みなと銀行】住宅ローンお借り換えキャンペーン実施中。金利見直しのご相談は店頭またはオンラインで。https://minato.example/l/{short}',
  },
];

/** Every reference prefix, in one list whose index (+1) the dataset stores per record. */
export const REF_PREFIXES: readonly string[] = [
  ...new Set(TEMPLATES.flatMap((t) => (t.refPrefix ? [t.refPrefix] : []))),
];
