/**
 * The simulated world's fixed cast: three enterprises, the keys they send with, the people who
 * send, and the credentials a client logs in with. Exported so the README, the tests and other
 * people's tests can name them instead of copying strings.
 *
 * A credential (what a client logs in with) and a sending key (the `api_key` of a record) are
 * different things on the real platform; `demo` and `sakura-ops` happen to be both, so a demo user
 * can filter on the key they logged in with and find their own traffic.
 */

export type DeliveryMethod = 'API' | 'Dashboard' | 'Campaign';
export const DELIVERY_METHODS: readonly DeliveryMethod[] = ['API', 'Dashboard', 'Campaign'];

export interface SimUser {
  readonly id: string;
  readonly name: string;
  readonly email: string;
}

export interface SendingKey {
  readonly apiKey: string;
  readonly name: string;
  readonly entityId: string;
  /** How traffic on this key is sent; a key is picked among those that list the method. */
  readonly methods: readonly DeliveryMethod[];
  /** Relative share among the keys of the same enterprise and method. */
  readonly weight: number;
}

export interface Enterprise {
  readonly id: string;
  readonly name: string;
  readonly entities: readonly string[];
  readonly users: readonly SimUser[];
  /** Sends from the Dashboard now and then, recorded in submitted_by_admin_user_id. */
  readonly admin: SimUser;
  readonly sendingKeys: readonly SendingKey[];
  /** Sender IDs (from_address): alphanumeric brands, short codes, numeric long codes. */
  readonly senders: readonly string[];
  /** Contract price per message part, in hundredths of a yen (330 = ¥3.30). */
  readonly pricePerPartSen: number;
}

export interface Credential {
  readonly apiKey: string;
  readonly secret: string;
  /** null: the support key, which sees every enterprise. */
  readonly enterpriseId: string | null;
  readonly description: string;
}

export const ENTERPRISES: readonly Enterprise[] = [
  {
    id: 'ent-sakura',
    name: 'Sakura Mart',
    entities: ['ety-sakura-stores', 'ety-sakura-online'],
    users: [
      { id: 'usr-1001', name: 'Yui Tanaka', email: 'yui.tanaka@sakuramart.example' },
      { id: 'usr-1002', name: 'Kenta Suzuki', email: 'kenta.suzuki@sakuramart.example' },
      { id: 'usr-1003', name: 'Aoi Sato', email: 'aoi.sato@sakuramart.example' },
      { id: 'usr-1004', name: 'Haruto Ito', email: 'haruto.ito@sakuramart.example' },
    ],
    admin: { id: 'adm-1000', name: 'Megumi Kimura', email: 'megumi.kimura@sakuramart.example' },
    sendingKeys: [
      { apiKey: 'demo', name: 'Demo key', entityId: 'ety-sakura-online', methods: ['API'], weight: 2 },
      {
        apiKey: 'sakura-ops',
        name: 'Store operations',
        entityId: 'ety-sakura-stores',
        methods: ['API', 'Dashboard'],
        weight: 3,
      },
      { apiKey: 'sakura-shop', name: 'Online shop', entityId: 'ety-sakura-online', methods: ['API'], weight: 5 },
      { apiKey: 'sakura-promo', name: 'Promotions', entityId: 'ety-sakura-online', methods: ['Campaign'], weight: 1 },
    ],
    senders: ['SakuraMart', 'SakuraShop', '20400'],
    pricePerPartSen: 330,
  },
  {
    id: 'ent-fuji',
    name: 'Fuji Logistics',
    entities: ['ety-fuji-east', 'ety-fuji-west'],
    users: [
      { id: 'usr-2001', name: 'Daiki Watanabe', email: 'daiki.watanabe@fujilogi.example' },
      { id: 'usr-2002', name: 'Mei Yamamoto', email: 'mei.yamamoto@fujilogi.example' },
      { id: 'usr-2003', name: 'Sota Nakamura', email: 'sota.nakamura@fujilogi.example' },
      { id: 'usr-2004', name: 'Rin Kobayashi', email: 'rin.kobayashi@fujilogi.example' },
    ],
    admin: { id: 'adm-2000', name: 'Kazuo Matsumoto', email: 'kazuo.matsumoto@fujilogi.example' },
    sendingKeys: [
      {
        apiKey: 'fuji-tracking',
        name: 'Tracking notifications',
        entityId: 'ety-fuji-east',
        methods: ['API'],
        weight: 6,
      },
      { apiKey: 'fuji-redelivery', name: 'Redelivery desk', entityId: 'ety-fuji-west', methods: ['API'], weight: 2 },
      { apiKey: 'fuji-dispatch', name: 'Dispatch desk', entityId: 'ety-fuji-west', methods: ['Dashboard'], weight: 1 },
      { apiKey: 'fuji-marketing', name: 'Marketing', entityId: 'ety-fuji-east', methods: ['Campaign'], weight: 1 },
    ],
    senders: ['FujiLogi', 'FUJI', '815012345678'],
    pricePerPartSen: 352,
  },
  {
    id: 'ent-minato',
    name: 'Minato Bank',
    entities: ['ety-minato-retail', 'ety-minato-cards'],
    users: [
      { id: 'usr-3001', name: 'Hiroshi Kato', email: 'hiroshi.kato@minatobank.example' },
      { id: 'usr-3002', name: 'Yuka Yoshida', email: 'yuka.yoshida@minatobank.example' },
      { id: 'usr-3003', name: 'Takumi Yamada', email: 'takumi.yamada@minatobank.example' },
      { id: 'usr-3004', name: 'Nanami Sasaki', email: 'nanami.sasaki@minatobank.example' },
    ],
    admin: { id: 'adm-3000', name: 'Shinji Inoue', email: 'shinji.inoue@minatobank.example' },
    sendingKeys: [
      { apiKey: 'minato-otp', name: 'One-time passwords', entityId: 'ety-minato-retail', methods: ['API'], weight: 6 },
      { apiKey: 'minato-alerts', name: 'Card alerts', entityId: 'ety-minato-cards', methods: ['API'], weight: 3 },
      {
        apiKey: 'minato-branch',
        name: 'Branch staff',
        entityId: 'ety-minato-retail',
        methods: ['Dashboard'],
        weight: 1,
      },
      {
        apiKey: 'minato-marketing',
        name: 'Marketing',
        entityId: 'ety-minato-retail',
        methods: ['Campaign'],
        weight: 1,
      },
    ],
    senders: ['MinatoBank', '30300'],
    pricePerPartSen: 308,
  },
];

export const CREDENTIALS: readonly Credential[] = [
  {
    apiKey: 'demo',
    secret: 'demo-secret',
    enterpriseId: 'ent-sakura',
    description: 'Demo login of Sakura Mart (also one of its sending keys)',
  },
  {
    apiKey: 'sakura-ops',
    secret: 'sakura-ops-secret',
    enterpriseId: 'ent-sakura',
    description: 'Sakura Mart store operations (also a sending key)',
  },
  { apiKey: 'fuji', secret: 'fuji-secret', enterpriseId: 'ent-fuji', description: 'Fuji Logistics' },
  { apiKey: 'minato', secret: 'minato-secret', enterpriseId: 'ent-minato', description: 'Minato Bank' },
  {
    apiKey: 'minato-audit',
    secret: 'minato-audit-secret',
    enterpriseId: 'ent-minato',
    description: 'Minato Bank, a second login (its audit team)',
  },
  {
    apiKey: 'support',
    secret: 'support-secret',
    enterpriseId: null,
    description: 'Platform support: every enterprise; enterprise-id picks one',
  },
];

export function findCredential(apiKey: string): Credential | undefined {
  return CREDENTIALS.find((c) => c.apiKey === apiKey);
}

export function findEnterprise(id: string): Enterprise | undefined {
  return ENTERPRISES.find((e) => e.id === id);
}

/** Every sending key of every enterprise, in one list whose index the dataset stores per record. */
export const SENDING_KEYS: readonly (SendingKey & { enterpriseIndex: number })[] = ENTERPRISES.flatMap(
  (e, enterpriseIndex) => e.sendingKeys.map((k) => ({ ...k, enterpriseIndex })),
);

/** Every sender ID, in one list whose index the dataset stores per record. */
export const SENDERS: readonly { sender: string; enterpriseIndex: number }[] = ENTERPRISES.flatMap(
  (e, enterpriseIndex) => e.senders.map((sender) => ({ sender, enterpriseIndex })),
);

/** Every user (admins included), in one list whose index the dataset stores per record. */
export const USERS: readonly (SimUser & { enterpriseIndex: number; isAdmin: boolean })[] = ENTERPRISES.flatMap(
  (e, enterpriseIndex) => [
    ...e.users.map((u) => ({ ...u, enterpriseIndex, isAdmin: false })),
    { ...e.admin, enterpriseIndex, isAdmin: true },
  ],
);
