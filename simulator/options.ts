/**
 * Command-line flags and SIM_* environment variables → SimulatorOptions. A flag wins over its
 * environment variable, which wins over the default. Kept apart from cli.ts so it can be tested
 * without starting anything.
 */
import { DEFAULT_LIMITS, type Limits } from './limits';
import { SIMULATOR_DEFAULTS, type SimulatorOptions } from './server';
import { PAGE_SIZE_OVER, type PageSizeOver } from './params';

interface NumberOption {
  flag: string;
  env: string;
  apply: (o: SimulatorOptions, limits: Limits, value: number) => void;
  min: number;
  describe: string;
}

const NUMBER_OPTIONS: readonly NumberOption[] = [
  {
    flag: 'port',
    env: 'SIM_PORT',
    min: 0,
    apply: (o, _, v) => (o.port = v),
    describe: `port to listen on, 0 = any free (${SIMULATOR_DEFAULTS.port})`,
  },
  {
    flag: 'seed',
    env: 'SIM_SEED',
    min: 0,
    apply: (o, _, v) => (o.seed = v),
    describe: `seed of the simulated world (${SIMULATOR_DEFAULTS.seed})`,
  },
  {
    flag: 'days',
    env: 'SIM_DAYS',
    min: 1,
    apply: (o, _, v) => (o.days = v),
    describe: `days of history (${SIMULATOR_DEFAULTS.days})`,
  },
  {
    flag: 'per-day',
    env: 'SIM_PER_DAY',
    min: 1,
    apply: (o, _, v) => (o.perDay = v),
    describe: `messages per day, about (${SIMULATOR_DEFAULTS.perDay})`,
  },
  {
    flag: 'token-ttl',
    env: 'SIM_TOKEN_TTL',
    min: 1,
    apply: (o, _, v) => (o.tokenTtlSeconds = v),
    describe: `token lifetime, seconds (${SIMULATOR_DEFAULTS.tokenTtlSeconds})`,
  },
  {
    flag: 'max-page-size',
    env: 'SIM_MAX_PAGE_SIZE',
    min: 1,
    apply: (o, _, v) => (o.maxPageSize = v),
    describe: `largest page-size accepted (${SIMULATOR_DEFAULTS.maxPageSize})`,
  },
  {
    flag: 'limit-in-flight',
    env: 'SIM_LIMIT_IN_FLIGHT',
    min: 1,
    apply: (_, l, v) => (l.maxInFlight = v),
    describe: `simultaneous requests per account and per IP (${DEFAULT_LIMITS.maxInFlight})`,
  },
  {
    flag: 'limit-per-minute',
    env: 'SIM_LIMIT_PER_MINUTE',
    min: 1,
    apply: (_, l, v) => (l.perMinute = v),
    describe: `requests per account per sliding minute (${DEFAULT_LIMITS.perMinute})`,
  },
  {
    flag: 'limit-per-hour',
    env: 'SIM_LIMIT_PER_HOUR',
    min: 1,
    apply: (_, l, v) => (l.perHour = v),
    describe: `requests per account per sliding hour (${DEFAULT_LIMITS.perHour})`,
  },
  {
    flag: 'limit-per-day',
    env: 'SIM_LIMIT_PER_DAY',
    min: 1,
    apply: (_, l, v) => (l.perDay = v),
    describe: `requests per account per sliding day (${DEFAULT_LIMITS.perDay})`,
  },
  {
    flag: 'latency',
    env: 'SIM_LATENCY',
    min: 0,
    apply: (o, _, v) => (o.latencyMs = v),
    describe: `added delay per request, ms (${SIMULATOR_DEFAULTS.latencyMs})`,
  },
  {
    flag: 'token-latency',
    env: 'SIM_TOKEN_LATENCY',
    min: 0,
    apply: (o, _, v) => (o.tokenLatencyMs = v),
    describe: `added delay on the token endpoint only, ms (${SIMULATOR_DEFAULTS.tokenLatencyMs})`,
  },
];

const BOOLEAN_OPTIONS = [
  { flag: 'no-limits', env: 'SIM_NO_LIMITS', describe: 'turn every limit off' },
  {
    flag: 'ip-rate-limits',
    env: 'SIM_IP_RATE_LIMITS',
    describe: 'apply the per-minute/hour/day limits per client IP too',
  },
  { flag: 'quiet', env: 'SIM_QUIET', describe: 'no request log' },
] as const;

export function usage(): string {
  const lines = [
    'usage: npm run sim -- [options]',
    ...NUMBER_OPTIONS.map((n) => `  --${n.flag} <n>`.padEnd(28) + `${n.describe}  [${n.env}]`),
    `  --host <address>`.padEnd(28) + `address to bind (${SIMULATOR_DEFAULTS.host})  [SIM_HOST]`,
    `  --page-size-over <how>`.padEnd(28) +
      `above --max-page-size: ${PAGE_SIZE_OVER.join(' (400) or ')} (serve the largest) (${SIMULATOR_DEFAULTS.pageSizeOver})  [SIM_PAGE_SIZE_OVER]`,
    ...BOOLEAN_OPTIONS.map((b) => `  --${b.flag}`.padEnd(28) + `${b.describe}  [${b.env}=1]`),
    `  --help`.padEnd(28) + 'this text',
  ];
  return lines.join('\n');
}

export type ParsedCli = { ok: true; options: SimulatorOptions; help: boolean } | { ok: false; message: string };

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v);

export function parseCli(argv: readonly string[], env: Record<string, string | undefined>): ParsedCli {
  const options: SimulatorOptions = {};
  const limits: Limits = { ...DEFAULT_LIMITS };
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) return { ok: false, message: `unexpected argument "${arg}"` };
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (name === 'help' || BOOLEAN_OPTIONS.some((b) => b.flag === name)) {
      flags.set(name, true);
      continue;
    }
    if (name !== 'host' && name !== 'page-size-over' && !NUMBER_OPTIONS.some((n) => n.flag === name))
      return { ok: false, message: `unknown option --${name}` };
    const value = inline ?? argv[++i];
    if (value === undefined) return { ok: false, message: `--${name} needs a value` };
    flags.set(name, value);
  }

  for (const n of NUMBER_OPTIONS) {
    const raw = flags.get(n.flag) ?? env[n.env];
    if (raw === undefined || raw === true || raw === '') continue;
    if (!/^\d+$/.test(raw) || Number(raw) < n.min)
      return { ok: false, message: `--${n.flag} must be a whole number >= ${n.min}, got "${raw}"` };
    n.apply(options, limits, Number(raw));
  }
  const host = flags.get('host') ?? env.SIM_HOST;
  if (typeof host === 'string' && host !== '') options.host = host;
  const over = flags.get('page-size-over') ?? env.SIM_PAGE_SIZE_OVER;
  if (typeof over === 'string' && over !== '') {
    if (!(PAGE_SIZE_OVER as readonly string[]).includes(over))
      return { ok: false, message: `--page-size-over must be ${PAGE_SIZE_OVER.join(' or ')}, got "${over}"` };
    options.pageSizeOver = over as PageSizeOver;
  }
  const on = (flag: (typeof BOOLEAN_OPTIONS)[number]['flag']) =>
    flags.get(flag) === true || truthy(env[BOOLEAN_OPTIONS.find((b) => b.flag === flag)!.env]);
  limits.ipRateLimits = on('ip-rate-limits');
  options.limits = on('no-limits') ? false : limits;
  options.quiet = on('quiet');
  return { ok: true, options, help: flags.get('help') === true };
}
