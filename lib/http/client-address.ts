/**
 * The client's address, as sign-in throttling counts it (lib/auth/sign-in-throttle.ts).
 *
 * TRUST_PROXY_HOPS says how many reverse proxies stand in front of the dashboard, each adding the
 * address it was reached from to X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`, most load
 * balancers). With N of them, the client is the N-th address from the right: what lies left of it
 * was written by the client and is never read. With 0 (the default: `next start` facing clients),
 * X-Forwarded-For is not read at all, and the address is the TCP peer's (./peer-address.ts).
 *
 * An IPv6 client is counted by its /64 — one subscriber's network, inside which it can pick any
 * address — and an IPv4-mapped IPv6 address as the IPv4 address it is.
 */
import { isIP } from 'node:net';

/** The address to count, or null when none can be trusted. */
export function clientAddress(forwardedFor: string | null, peer: string | null, trustedHops: number): string | null {
  if (trustedHops > 0 && forwardedFor) {
    const hops = forwardedFor.split(',').map((s) => s.trim());
    if (hops.length >= trustedHops) return normalise(hops[hops.length - trustedHops] as string);
  }
  // Fewer hops than configured: the request did not come through every proxy; its peer is the nearest truth.
  return peer === null ? null : normalise(peer);
}

/** An address as counted: IPv4 as it is, IPv6 as its /64 (`2001:db8:1:2::/64`); null when it is not an address. */
export function normalise(raw: string): string | null {
  let value = raw.trim();
  // `[v6]:port` and `v4:port`, as some proxies write them.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1] as string;
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  if (mapped) value = mapped[1] as string;
  const family = isIP(value);
  if (family === 4) return value;
  if (family === 6) return `${expandV6(value).slice(0, 4).join(':')}::/64`;
  return null;
}

/** The eight groups of an IPv6 address, without leading zeros. */
function expandV6(address: string): string[] {
  const zone = address.indexOf('%');
  const bare = (zone >= 0 ? address.slice(0, zone) : address).toLowerCase();
  const [head, tail] = bare.includes('::') ? bare.split('::') : [bare, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => g.replace(/^0+(?=.)/, ''));
}
