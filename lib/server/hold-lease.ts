import 'server-only';
/**
 * Runs one step of background work under its lease (lib/store/leases.ts): renewed a few times a
 * lease's life while the step lasts (a call may wait long for its turn), and the step aborted if
 * the lease is lost (this instance stalled past it and another took the work over). Returns null
 * when the lease could not be taken at all.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { LeaseStore } from '../store';

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
): Promise<T | null> {
  if (!(await leases.tryAcquire(lease.resource, lease.holder, now(), lease.ttlMs))) return null;
  const controller = new AbortController();
  const forward = () => controller.abort(outer.reason);
  outer.addEventListener('abort', forward, { once: true });
  const keepAlive = setInterval(() => {
    void leases.tryAcquire(lease.resource, lease.holder, now(), lease.ttlMs).then(
      (held) => {
        if (!held) controller.abort(new Error('lease lost'));
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
