import 'server-only';
/**
 * Runs one step of background work under its lease (lib/background/lease-store.ts): renewed a few times a
 * lease's life while the step lasts (a call may wait long for its turn), and the step aborted if
 * the lease is lost (this instance stalled past it and another took the work over). Returns null
 * when the lease could not be taken at all.
 *
 * `renewal`, kept by the caller across the steps of one piece of work, skips taking the lease
 * again before a step when it was taken less than a third of its life ago: a step then starts with
 * at least two thirds left, and a store write per page is saved (exports run page after page).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { LeaseStore } from './lease-store';

/**
 * Which instance holds a lease: host and process id first, so the leases table tells an operator
 * (and the fault tests) which instance works on what; the random part keeps two runners of one
 * process (tests) apart.
 */
export function leaseHolder(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export async function holdLease<T>(
  leases: LeaseStore,
  lease: { resource: string; holder: string; ttlMs: number },
  now: () => number,
  outer: AbortSignal,
  step: (signal: AbortSignal) => Promise<T>,
  renewal: { at: number } = { at: Number.NEGATIVE_INFINITY },
): Promise<T | null> {
  const startAt = now();
  if (startAt - renewal.at >= lease.ttlMs / 3) {
    if (!(await leases.tryAcquire(lease.resource, lease.holder, startAt, lease.ttlMs))) return null;
    renewal.at = startAt;
  }
  const controller = new AbortController();
  const forward = () => controller.abort(outer.reason);
  outer.addEventListener('abort', forward, { once: true });
  const keepAlive = setInterval(() => {
    const at = now();
    void leases.tryAcquire(lease.resource, lease.holder, at, lease.ttlMs).then(
      (held) => {
        if (held) renewal.at = at;
        else controller.abort(new Error('lease lost'));
      },
      () => undefined,
    );
  }, lease.ttlMs / 3);
  keepAlive.unref?.();
  try {
    return await step(controller.signal);
  } finally {
    clearInterval(keepAlive);
    outer.removeEventListener('abort', forward);
  }
}
